# question: cls_probability
# fails: test_extreme_logits
# public: must stay finite for large logits
# diagnosis: cls_overflows
import math
import numpy as np
def cls_probability(h_cls, w, b):
    return 1.0 / (1.0 + math.exp(-float(np.dot(h_cls, w) + b)))  # OverflowError for z < -709
