# The edges written another way: layer_norm's default eps as a float32 number with a
# shifted one-pass variance and a reciprocal square root; mask_patches as a new array
# from np.where; the sigmoid's branches split at z > 0, so that 0 takes the negative one.
import math

import numpy as np


def layer_norm(x, eps=np.float32(1e-5)):
    x = np.asarray(x, dtype=np.float64)
    shifted = x - x[..., :1]  # one pass over values shifted by a sample: no cancellation
    mean = shifted.mean(-1, keepdims=True)
    var = (shifted * shifted).mean(-1, keepdims=True) - mean * mean
    return (shifted - mean) * np.reciprocal(np.sqrt(var + eps))


def mask_patches(z, positions, mask_vector):
    rows = np.zeros(len(z), dtype=bool)
    rows[list(positions)] = True
    return np.where(rows[:, None], np.asarray(mask_vector)[None, :], z)


def cls_probability(h_cls, w, b):
    z = float(np.dot(h_cls, w) + b)
    if z > 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)
