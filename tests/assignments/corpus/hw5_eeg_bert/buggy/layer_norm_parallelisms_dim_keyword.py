# question: layer_norm
# fails: test_rows_mean_zero_std_one, test_values, test_eps_inside_square_root
# public: TypeError: _mean() got an unexpected keyword argument 'dim'
# makes: -
# batch G2 (labelled before grading)
# NumPy's mean has no `dim` keyword: a TypeError on every call; its eps 1e-05 also
# written in (no diagnosis)
# split: measure
# source: lweitkamp/transformer_parallelisms, numpy_sequential/norm.py (LayerNorm.forward with weight 1
# source: and bias 0 in place of its random ones; its eps 1e-05 written in, as it is)
import numpy as np


def layer_norm(x, eps=1e-5):
    inputs = np.asarray(x)
    mean = inputs.mean(dim=-1, keepdims=True)
    var = ((inputs - mean) ** 2).mean(dim=-1, keepdims=True)
    std = np.sqrt(var + 1e-05)

    normed = (inputs - mean) / std
    return normed
