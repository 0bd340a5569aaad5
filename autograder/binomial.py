"""Exact binomial acceptance intervals for the statistical hidden tests.

A correct sampler makes each count an exact binomial variable X ~ Bin(n, p)
(sometimes conditionally on another count, which is fine: a bound that holds
for every value of the condition holds on average). interval(n, p, alpha)
returns [lo, hi] with P(X < lo) <= alpha/2 and P(X > hi) <= alpha/2, summed
exactly from the probability mass function, so a correct sampler falls
outside with probability at most alpha. A test that makes k such checks
gives each alpha = ALPHA / k: by the union bound (no independence needed) a
correct sampler fails the test with probability at most ALPHA.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

ALPHA = 1e-6
"""Largest probability that a correct sampler fails one test."""


def pmf(n: int, p: float) -> np.ndarray:
    """P(X = k) for k = 0..n, X ~ Bin(n, p), 0 < p < 1, in log space (n up to ~1e6)."""
    k = np.arange(1, n + 1)
    log_comb = np.concatenate(([0.0], np.cumsum(np.log(n - k + 1) - np.log(k))))  # log C(n, k)
    ks = np.arange(n + 1)
    return np.exp(log_comb + ks * np.log(p) + (n - ks) * np.log1p(-p))


@lru_cache(maxsize=4096)
def interval(n: int, p: float, alpha: float) -> tuple[int, int]:
    """The exact two-sided acceptance interval [lo, hi] of Bin(n, p) at level alpha."""
    if p <= 0.0:
        return 0, 0
    if p >= 1.0:
        return n, n
    mass = pmf(n, p)
    below = np.cumsum(mass)              # below[k] = P(X <= k), summed from the small tail up
    above = np.cumsum(mass[::-1])[::-1]  # above[k] = P(X >= k), likewise
    lo = int(np.searchsorted(below, alpha / 2, side="right"))  # P(X <= lo - 1) <= alpha/2
    hi = int(np.count_nonzero(above > alpha / 2)) - 1           # P(X >= hi + 1) <= alpha/2
    return lo, hi

