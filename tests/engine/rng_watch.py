"""unlocked_draws(): catches the trusted process drawing from torch's or numpy's global
RNG without holding numerics.GLOBAL_RNG.

While it runs, a thread of its own takes the lock again and again, and each time
compares the RNGs' states before and after a short hold: as every honest user
holds the lock, a state that moved meanwhile was moved by a thread that did not.
It samples (it holds the lock a third of the time), so a rare draw may slip
through; a grading of a whole corpus draws often enough to be seen.
"""
from __future__ import annotations

import contextlib
import threading
import time
import types

import numpy as np
import torch

from autograder.engine import numerics

HOLD, GAP = 0.001, 0.002  # seconds: the watcher's hold of the lock, then the others'


def _states():
    kind, keys, pos, *_ = np.random.get_state()
    return torch.default_generator.get_state(), keys.tobytes(), pos


@contextlib.contextmanager
def unlocked_draws():
    """with unlocked_draws() as seen: ...; seen.count: the watcher's holds during
    which a global RNG moved."""
    seen, stop = types.SimpleNamespace(count=0), threading.Event()

    def watch() -> None:
        while not stop.is_set():
            with numerics.GLOBAL_RNG:
                before = _states()
                time.sleep(HOLD)
                after = _states()
            seen.count += not torch.equal(before[0], after[0]) or before[1:] != after[1:]
            time.sleep(GAP)
    watcher = threading.Thread(target=watch, name="rng-watch", daemon=True)
    watcher.start()
    try:
        yield seen
    finally:
        stop.set()
        watcher.join()
