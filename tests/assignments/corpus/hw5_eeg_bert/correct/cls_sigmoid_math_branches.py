# source: utec-pi-facerecognition/frecognition, Simple_Activation_Function.py (sigmoid, applied to
# source: the logit h_cls . w + b)
import math

import numpy as np


def sigmoid(x):
    if x < 0:
        return 1 - 1 / (1 + math.exp(x))
    else:
        return 1 / (1 + math.exp(-x))


def cls_probability(h_cls, w, b):
    return sigmoid(np.dot(h_cls, w) + b)
