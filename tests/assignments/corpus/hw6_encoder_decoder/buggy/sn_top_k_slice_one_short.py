# question: sample_next
# fails: test_top_k_distribution
# public: top_k=1 must always return the argmax
# diagnosis: sn_top_k_miscounted
# the top-k ids sliced one short, argsort(z)[-(top_k - 1):]: k - 1 ids survive, and
# with top_k=1 the slice [-0:] keeps every id
import numpy as np
def sample_next(logits, temperature, rng, top_k=None):
    if temperature <= 0 or (top_k is not None and top_k < 1):
        raise ValueError("bad arguments")
    z = np.asarray(logits, dtype=float) / temperature
    if top_k is not None and top_k < len(z):
        keep = np.argsort(z)[-(top_k - 1):]
        z = np.where(np.isin(np.arange(len(z)), keep), z, -np.inf)
    p = np.exp(z - z.max()); p /= p.sum()
    return int(rng.choice(len(p), p=p))
