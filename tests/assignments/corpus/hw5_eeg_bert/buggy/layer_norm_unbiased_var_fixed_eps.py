# question: layer_norm
# fails: test_rows_mean_zero_std_one, test_values
# public: dividing by n
# makes: ln_sample_variance
# split: measure
# source: vebg25/LLM-from-scratch, Transformer_Architecture_chapter_3/LayerNormalization.py (torch's
# source: x.var, unbiased by default, written as numpy's ddof=1; scale 1 and shift 0 left out)
import numpy as np


def layer_norm(x, eps=1e-5):
    eps = 1e-5
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, ddof=1, keepdims=True)
    norm_x = (x - mean) / np.sqrt(var + eps)
    return norm_x
