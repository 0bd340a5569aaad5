# question: sample_next
# fails: test_top_k_beyond_vocabulary
# public: -
# diagnosis: sn_top_k_beyond_vocabulary_raises
import numpy as np
def sample_next(logits, temperature, rng, top_k=None):
    if temperature <= 0 or (top_k is not None and top_k < 1):
        raise ValueError("bad arguments")
    z = np.asarray(logits, dtype=float) / temperature
    if top_k is not None:
        z = np.where(z >= np.sort(z)[-top_k], z, -np.inf)  # IndexError once top_k > len(z)
    p = np.exp(z - z.max()); p /= p.sum()
    return int(rng.choice(len(p), p=p))
