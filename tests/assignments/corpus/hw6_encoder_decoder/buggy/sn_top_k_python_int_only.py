# question: sample_next
# fails: test_top_k_distribution, test_rejects_invalid_arguments
# public: -
# diagnosis: sn_numpy_top_k_unchecked
# Tests top_k with isinstance(top_k, int): a numpy integer top_k (from
# np.argmax or a shape) is neither checked nor applied, so every id is drawn.
import numpy as np


def sample_next(logits, temperature, rng, top_k=None):
    if temperature <= 0:
        raise ValueError("temperature must be positive")
    z = np.asarray(logits, dtype=np.float64) / temperature
    if isinstance(top_k, int):
        if top_k < 1:
            raise ValueError("top_k must be >= 1")
        z = np.where(z >= np.sort(z)[-min(top_k, z.size)], z, -np.inf)
    p = np.exp(z - z.max())
    return int(rng.choice(z.size, p=p / p.sum()))
