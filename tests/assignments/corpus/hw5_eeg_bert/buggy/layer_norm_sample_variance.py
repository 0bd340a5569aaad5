# question: layer_norm
# fails: test_rows_mean_zero_std_one, test_values
# public: dividing by n
# diagnosis: ln_sample_variance
import numpy as np
def layer_norm(x, eps=1e-5):
    """Mistake: the sample variance (ddof=1) instead of the population variance."""
    x = np.asarray(x, dtype=np.float64)
    return (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, ddof=1, keepdims=True) + eps)
