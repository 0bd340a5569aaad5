# question: layer_norm
# fails: test_eps_inside_square_root
# public: -
# diagnosis: ln_bert_eps
# BERT's own layer_norm_eps (1e-12) as the default instead of the contract's 1e-5: the
# same as the reference wherever the variance dwarfs eps, wrong where it is near eps.
import numpy as np


def layer_norm(x, eps=1e-12):
    x = np.asarray(x, dtype=np.float64)
    mean = x.mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(x.var(-1, keepdims=True) + eps)
