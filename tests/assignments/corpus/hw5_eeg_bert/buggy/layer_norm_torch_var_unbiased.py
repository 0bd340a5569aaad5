# question: layer_norm
# fails: test_rows_mean_zero_std_one, test_values
# public: dividing by n
# makes: ln_sample_variance
# source: kveps/motion_prediction, models/transformer/layer_norm.py (LayerNorm.forward; torch.var,
# source: unbiased by default, written as NumPy's ddof=1)
import numpy as np


def layer_norm(x, eps=1e-5):
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.var(x, axis=-1, ddof=1, keepdims=True)
    x_norm = (x - mean) / np.sqrt(var + eps)
    return x_norm
