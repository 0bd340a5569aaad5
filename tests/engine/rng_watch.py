"""UnlockedDraws: catches the trusted process drawing from torch's or numpy's global
RNG without holding numerics.GLOBAL_RNG.

While it runs, a thread of its own takes the lock again and again, and each time
compares the RNGs' states before and after a short hold: as every honest user
holds the lock, a state that moved meanwhile was moved by a thread that did not.
It samples (it holds the lock a third of the time), so a rare draw may slip
through; a grading of a whole corpus draws often enough to be seen.
"""
from __future__ import annotations

import threading
import time

import numpy as np
import torch

from autograder.engine import numerics

HOLD, GAP = 0.001, 0.002  # seconds: the watcher's hold of the lock, then the others'


def _states():
    kind, keys, pos, *_ = np.random.get_state()
    return torch.default_generator.get_state(), keys.tobytes(), pos


class UnlockedDraws:
    """with UnlockedDraws() as draws: ...; draws.count: the holds during which a
    global RNG moved."""

    def __init__(self):
        self.count = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="rng-watch", daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()

    def _watch(self) -> None:
        while not self._stop.is_set():
            with numerics.GLOBAL_RNG:
                torch_state, keys, pos = _states()
                time.sleep(HOLD)
                now = _states()
                if not torch.equal(torch_state, now[0]) or (keys, pos) != now[1:]:
                    self.count += 1
            time.sleep(GAP)
