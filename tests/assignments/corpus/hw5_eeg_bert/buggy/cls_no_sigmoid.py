# question: cls_probability
# fails: test_seed_example, test_values
import numpy as np
def cls_probability(h_cls, w, b):
    return float(np.dot(h_cls, w) + b)
