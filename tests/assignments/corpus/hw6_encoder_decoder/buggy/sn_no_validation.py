# question: sample_next
# fails: test_rejects_invalid_arguments
# public: temperature 0 should raise ValueError
# diagnosis: sn_unchecked
import numpy as np
def sample_next(logits, temperature, rng, top_k=None):
    z = np.asarray(logits, dtype=float) / max(temperature, 1e-8)
    if top_k:
        z = np.where(z >= np.sort(z)[-min(top_k, len(z))], z, -np.inf)
    p = np.exp(z - z.max()); p /= p.sum()
    return int(rng.choice(len(p), p=p))
