"""The trusted side's own numerics (torch and numpy in the grader, shared by its
grading threads): torch imported once, the global RNGs seeded under one lock,
and one thread for the references' computations.

torch is imported here once, up front, by the thread that loads the
assignment: a lazy import of torch from several grading threads at once
races. The reference computations of hidden tests are small, so one thread
is enough, and more would only fight the workers (one core each) and each
other (hw4's documented training run took 10 s of wall clock on two intra-op
threads of a busy machine, 0.6 s on one). numpy's BLAS too: a (1000, 64) @ (64, 1000) product took 9 ms on two
threads of a busy 2-core machine, 1.7 ms on one.
"""
from __future__ import annotations

import contextlib
import threading

import numpy as np
import threadpoolctl

try:
    import torch
except ImportError:  # numpy-only installations
    torch = None

GLOBAL_RNG = threading.RLock()
"""Held by whoever may draw from torch's and numpy's global RNGs in the trusted
process: seeded (a hidden test's reference, a driven replay) and every replay of
a diagnosis (diagnoses/replay.answer: a sign's reference builds modules too). Grading
threads share those RNGs, and one draw from another thread in the middle of a
seeded build gives every submission of the batch a wrong reference (a weight
built after it). Reentrant: a driven replay replays under its seeded."""


@contextlib.contextmanager
def seeded(seed: int):
    """Use torch's and numpy's global RNGs in the trusted process, seeded, without
    racing the tests of other submissions graded in other threads; they are given
    back as they were after. Never call the student inside: the lock would wait
    for the worker."""
    forked = contextlib.nullcontext() if torch is None else torch.random.fork_rng(devices=[])
    with GLOBAL_RNG, forked:
        state = np.random.get_state()
        try:
            seed_global_rngs(seed)
            yield
        finally:
            np.random.set_state(state)


def seed_global_rngs(seed: int) -> None:
    """torch.manual_seed(seed) and np.random.seed(seed), for the CPU alone: the
    trusted process computes on no other device, and torch.manual_seed's seeding of
    every device type costs a third of a millisecond a call."""
    if torch is not None:
        torch.default_generator.manual_seed(seed)
    np.random.seed(seed)


def one_thread_for_references() -> None:
    if torch is not None:
        torch.set_num_threads(1)
    threadpoolctl.threadpool_limits(1, user_api="blas")
