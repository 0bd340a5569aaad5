# question: cls_probability
import numpy as np
def cls_probability(h_cls, w, b):
    return float(np.dot(h_cls, w) + b)
