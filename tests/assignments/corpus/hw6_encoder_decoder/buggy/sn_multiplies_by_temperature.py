# question: sample_next
# fails: test_temperature_distribution
# public: -
# diagnosis: sn_multiplies_by_temperature
import numpy as np
def sample_next(logits, temperature, rng, top_k=None):
    """Mistake: multiplies the logits by the temperature."""
    if temperature <= 0 or (top_k is not None and top_k < 1):
        raise ValueError("bad arguments")
    z = np.asarray(logits, dtype=float) * temperature
    if top_k is not None:
        z = np.where(z >= np.sort(z)[-min(top_k, len(z))], z, -np.inf)
    p = np.exp(z - z.max())
    return int(rng.choice(len(p), p=p / p.sum()))
