# source: marjokaci/Artificial-Intelligence, logistic_regression_class/logistic1.py (sigmoid of the
# source: logit; its bias is the weight of a column of ones, here the b given)
import numpy as np


def sigmoid(z):
    return 1/(1 + np.exp(-z))


def cls_probability(h_cls, w, b):
    z = np.asarray(h_cls).dot(w) + b
    return float(sigmoid(z))
