# question: sample_next
# fails: test_returns_an_id
# public: -
# diagnosis: sn_int_temperature_raises
# Validates the temperature as a float, so an int temperature (2), which the
# contract allows, raises; every float temperature is handled correctly.
import numpy as np


def sample_next(logits, temperature, rng, top_k=None):
    if not isinstance(temperature, float) or temperature <= 0:
        raise ValueError("temperature must be a positive float")
    if top_k is not None and top_k < 1:
        raise ValueError("top_k must be >= 1")
    z = np.asarray(logits, dtype=np.float64) / temperature
    if top_k is not None:
        z = np.where(z >= np.sort(z)[-min(top_k, z.size)], z, -np.inf)
    p = np.exp(z - z.max())
    return int(rng.choice(z.size, p=p / p.sum()))
