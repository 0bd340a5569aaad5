# question: layer_norm
# fails: test_eps_inside_square_root
# public: eps keeps the division finite
# diagnosis: ln_no_eps
import numpy as np
def layer_norm(x, eps=1e-5):
    x = np.asarray(x, dtype=np.float64)
    return (x - x.mean(-1, keepdims=True)) / x.std(-1, keepdims=True)
