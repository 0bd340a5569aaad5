# question: cls_probability
# fails: test_extreme_logits
# public: at a logit of exactly 0
# diagnosis: cls_misses_zero
# A stable sigmoid split into `z > 0` and `z < 0`: a logit of exactly 0 falls through
# both branches and the function returns None.
import math

import numpy as np


def cls_probability(h_cls, w, b):
    z = float(np.dot(h_cls, w) + b)
    if z > 0:
        return 1.0 / (1.0 + math.exp(-z))
    if z < 0:
        e = math.exp(z)
        return e / (1.0 + e)
