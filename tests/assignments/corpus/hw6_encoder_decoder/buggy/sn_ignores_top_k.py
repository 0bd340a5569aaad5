# question: sample_next
# fails: test_top_k_distribution
# public: top_k=1 must always return the argmax
# diagnosis: sn_ignores_top_k
import numpy as np
def sample_next(logits, temperature, rng, top_k=None):
    if temperature <= 0 or (top_k is not None and top_k < 1):
        raise ValueError("bad arguments")
    z = np.asarray(logits, dtype=float) / temperature
    p = np.exp(z - z.max()); p /= p.sum()
    return int(rng.choice(len(p), p=p))
