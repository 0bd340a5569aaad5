# question: cls_probability
# fails: test_seed_example, test_values
# public: -
# makes: -
# 1 / (1 + e^z), the sigmoid of -z: no diagnosis
# split: measure
# source: S1m0nCi/Python-Neural-Network, python-neural-network/functions/sigmoid.py (sigmoid,
# source: applied to the logit h_cls . w + b)
import numpy as np


def sigmoid(x):
    return 1 / (1 + np.exp(x))


def cls_probability(h_cls, w, b):
    return sigmoid(np.dot(h_cls, w) + b)
