# sample_next that checks its arguments' types strictly but as the contract
# allows (any real temperature, any integer top_k: Python or numpy, through
# numbers.Real and operator.index), keeps the top_k with argpartition and
# draws by inverse CDF from one rng.random().
import numbers
import operator

import numpy as np


def sample_next(logits, temperature, rng, top_k=None):
    if isinstance(temperature, bool) or not isinstance(temperature, numbers.Real):
        raise TypeError("temperature must be a real number")
    if not temperature > 0:
        raise ValueError("temperature must be > 0")
    z = np.asarray(logits, dtype=np.float64) / float(temperature)
    keep = np.arange(z.size)
    if top_k is not None:
        k = operator.index(top_k)
        if k < 1:
            raise ValueError("top_k must be >= 1")
        if k < z.size:
            keep = np.argpartition(-z, k - 1)[:k]
    w = np.exp(z[keep] - z[keep].max())
    cdf = np.cumsum(w) / w.sum()
    j = min(int(np.searchsorted(cdf, rng.random(), side="right")), keep.size - 1)
    return int(keep[j])
