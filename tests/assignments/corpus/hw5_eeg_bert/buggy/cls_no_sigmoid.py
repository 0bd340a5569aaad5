# question: cls_probability
# fails: test_seed_example, test_values
# public: sigmoid(0) is 0.5
# public: not a probability
# diagnosis: cls_no_sigmoid
import numpy as np
def cls_probability(h_cls, w, b):
    return float(np.dot(h_cls, w) + b)
