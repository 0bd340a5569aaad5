# question: layer_norm
# fails: test_eps_inside_square_root
# public: -
# makes: -
# split: measure
# source: jimmybanta/LLM-from-scratch, transformer/layer_norm.py (LayerNorm.forward, scale_shift=False)
import numpy as np


def layer_norm(x, eps=1e-5):
    # calculate the mean and variance
    mean = np.mean(x, axis=-1, keepdims=True)
    variance = np.var(x, axis=-1, keepdims=True)
    # normalize the input
    x = (x - mean) / np.sqrt(variance + 1e-5)
    return x
