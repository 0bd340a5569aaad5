# question: cls_probability
# fails: test_extreme_logits
# public: gave nan, not a probability
# diagnosis: cls_exp_ratio
import numpy as np
def cls_probability(h_cls, w, b):
    z = np.dot(h_cls, w) + b
    with np.errstate(over="ignore", invalid="ignore"):
        return float(np.exp(z) / (1.0 + np.exp(z)))  # inf / inf for large z
