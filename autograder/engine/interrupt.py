"""SIGINT and SIGTERM during a local batch: a request to stop, not a crash.

The default SIGINT raises KeyboardInterrupt wherever the main thread happens
to be (in the middle of writing a result, say) and SIGTERM ends the process
at once; either way what was graded is never summed up. Here a signal only
records that it came: the batch looks at `Stop.signum` between results, stops
taking submissions, kills its workers and writes what it has. Once one signal
came, further ones are ignored until the process exits, so that an impatient
second Ctrl-C cannot cut the writing short (SIGKILL still ends it; what was
kept survives even that: engine/resume.py).
"""
from __future__ import annotations

import signal
import threading

SIGNALS = (signal.SIGINT, signal.SIGTERM)


def status(signum: int) -> int:
    """The exit status of a command stopped by `signum`, as a shell reports a
    process killed by it: 130 for SIGINT, 143 for SIGTERM."""
    return 128 + signum


class Stop:
    """Within `with Stop() as stop:`, SIGINT and SIGTERM set stop.signum (the
    first one's number) instead of their default action. Outside the main
    thread (where Python cannot set handlers) it never fires. On leaving, the
    previous handlers come back unless a signal came: then both stay ignored."""

    def __init__(self, enabled: bool = True):
        self.enabled = enabled and threading.current_thread() is threading.main_thread()
        self.signum: int | None = None
        self._previous: dict = {}

    def _handle(self, signum, frame) -> None:
        if self.signum is None:
            self.signum = signum
        for sig in SIGNALS:
            signal.signal(sig, signal.SIG_IGN)

    def __enter__(self) -> "Stop":
        if self.enabled:
            self._previous = {sig: signal.signal(sig, self._handle) for sig in SIGNALS}
        return self

    def __exit__(self, *exc) -> None:
        if self.enabled and self.signum is None:
            for sig, handler in self._previous.items():
                signal.signal(sig, handler)
