# question: cls_probability
# fails: test_values
# public: -
# diagnosis: cls_no_bias
import math
import numpy as np
def cls_probability(h_cls, w, b):
    return 0.5 * (1.0 + math.tanh(float(np.dot(h_cls, w)) / 2.0))
