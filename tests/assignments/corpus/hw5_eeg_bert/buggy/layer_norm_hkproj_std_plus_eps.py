# question: layer_norm
# fails: test_rows_mean_zero_std_one, test_values
# public: dividing by n
# makes: ln_eps_outside, ln_sample_variance
# both at once: (x - mean) / (sample std + eps)
# split: measure
# source: hkproj/pytorch-transformer, model.py (LayerNormalization.forward with its eps from the
# source: stub; torch's x.std, unbiased by default, written as NumPy's ddof=1; alpha 1 and bias 0 left out)
import numpy as np


def layer_norm(x, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    std = x.std(axis=-1, ddof=1, keepdims=True)
    return (x - mean) / (std + eps)
