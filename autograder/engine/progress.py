"""Progress of a batch: a bar on a terminal, a plain line now and then otherwise."""
from __future__ import annotations

import sys
import time


class Progress:
    def __init__(self, total: int, enabled: bool = True, stream=None):
        self.total, self.done = total, 0
        # sys.stderr as it is now, not as it was when this module was first imported
        # (a replaced stream, such as a closed capture, would be written to after)
        self.stream = sys.stderr if stream is None else stream
        self.enabled = enabled and total > 0
        self.tty = self.enabled and self.stream.isatty()
        self.start = time.monotonic()
        self.last_line = 0.0

    def advance(self) -> None:
        self.done += 1
        if not self.enabled:
            return
        elapsed = time.monotonic() - self.start
        rate = self.done / elapsed if elapsed > 0 else 0.0
        left = (self.total - self.done) / rate if rate > 0 else 0.0
        text = f"{self.done}/{self.total} graded, {rate:.1f}/s, {left:.0f} s left"
        if self.tty:
            width = 30
            filled = int(width * self.done / self.total)
            self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {text}  ")
            self.stream.flush()
        elif self.done == self.total or time.monotonic() - self.last_line > 5:
            self.last_line = time.monotonic()
            print(text, file=self.stream, flush=True)

    def close(self) -> None:
        if self.tty:
            self.stream.write("\n")
