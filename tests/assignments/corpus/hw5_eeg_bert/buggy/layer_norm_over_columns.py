# question: layer_norm
# fails: test_rows_mean_zero_std_one, test_values
# public: every row should have mean 0
# diagnosis: ln_over_columns
import numpy as np
def layer_norm(x, eps=1e-5):
    x = np.asarray(x, dtype=np.float64)
    return (x - x.mean(0, keepdims=True)) / np.sqrt(x.var(0, keepdims=True) + eps)
