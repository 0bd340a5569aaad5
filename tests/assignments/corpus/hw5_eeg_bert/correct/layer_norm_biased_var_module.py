# split: measure
# source: SvetimFM/transformer-training-interface, src/models/normalization.py (LayerNorm.forward;
# source: torch's var(unbiased=False) written as NumPy's; gamma 1 and beta 0 left out)
import numpy as np


def layer_norm(x, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    x_norm = (x - mean) / np.sqrt(var + eps)
    return x_norm
