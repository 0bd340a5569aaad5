# question: sample_next
# fails: test_temperature_distribution
# public: -
# diagnosis: sn_temperature_ignored
import numpy as np
def sample_next(logits, temperature, rng, top_k=None):
    if temperature <= 0 or (top_k is not None and top_k < 1):
        raise ValueError("bad arguments")
    z = np.asarray(logits, dtype=float)
    if top_k is not None:
        z = np.where(z >= np.sort(z)[-min(top_k, len(z))], z, -np.inf)
    p = np.exp(z - z.max()); p /= p.sum()
    p = p / temperature; p /= p.sum()  # dividing probabilities by T changes nothing
    return int(rng.choice(len(p), p=p))
