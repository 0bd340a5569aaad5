# split: measure
# source: ibusnowden/tiny_transformers, core/norm.py (LayerNorm.forward with gamma 1 and beta 0;
# source: its eps default 1e-6 is the stub's 1e-5)
import numpy as np


def layer_norm(x, eps=1e-5):
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.var(x, axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps)
