# question: sample_next
# fails: test_large_logits
# public: -
# diagnosis: sn_overflows
import numpy as np
def sample_next(logits, temperature, rng, top_k=None):
    if temperature <= 0 or (top_k is not None and top_k < 1):
        raise ValueError("bad arguments")
    z = np.asarray(logits, dtype=float) / temperature
    if top_k is not None:
        z = np.where(z >= np.sort(z)[-min(top_k, len(z))], z, -np.inf)
    with np.errstate(over="ignore", invalid="ignore"):
        p = np.exp(z); p /= p.sum()
    return int(rng.choice(len(p), p=p))
