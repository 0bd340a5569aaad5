# question: sample_next
# fails: test_returns_an_id, test_top_k_distribution, test_rejects_invalid_arguments
# public: -
# diagnosis: sn_numpy_top_k_raises
# Checks `type(top_k) is int`, so a numpy integer top_k (from np.argmax or a
# shape), which the contract allows, raises TypeError instead of being used
# (and np.int64(0) raises TypeError, not ValueError); Python ints work.
import numpy as np


def sample_next(logits, temperature, rng, top_k=None):
    if temperature <= 0:
        raise ValueError("temperature must be positive")
    if top_k is not None and type(top_k) is not int:
        raise TypeError("top_k must be an int")
    if top_k is not None and top_k < 1:
        raise ValueError("top_k must be >= 1")
    z = np.asarray(logits, dtype=np.float64) / temperature
    if top_k is not None:
        z = np.where(z >= np.sort(z)[-min(top_k, z.size)], z, -np.inf)
    p = np.exp(z - z.max())
    return int(rng.choice(z.size, p=p / p.sum()))
