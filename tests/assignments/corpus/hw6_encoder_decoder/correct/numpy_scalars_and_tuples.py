# Returns numpy scalars and tuples where the contract's plain ints and lists
# are equivalent; masks with a boolean top-k selection; validates lazily.
import numpy as np


def teacher_forcing(continuation, sos_id, eos_id):
    return (sos_id, *continuation), (*continuation, eos_id)


def greedy_decode(step, sos_id, eos_id, max_len):
    ids = [sos_id]
    for _ in range(max_len):
        ids.append(np.argmax(step(ids)))  # a numpy integer
        if ids[-1] == eos_id:
            break
    return ids


def sample_next(logits, temperature, rng, top_k=None):
    if temperature <= 0:
        raise ValueError("temperature <= 0")
    z = np.asarray(logits, dtype=np.float64) / temperature
    keep = np.ones(z.shape, dtype=bool)
    if top_k is not None:
        if top_k < 1:
            raise ValueError("top_k < 1")
        keep[:] = False
        keep[np.argpartition(-z, min(top_k, z.size) - 1)[:top_k]] = True
    p = np.where(keep, np.exp(z - z[keep].max()), 0.0)
    return rng.choice(z.size, p=p / p.sum())  # a numpy integer
