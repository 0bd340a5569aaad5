# question: cls_probability
# split: measure
# source: asteriscuz/logistic-regression-scratch, logistic_regression.py (LogisticRegression.predict_proba
# source: with h_cls as X, w its weights and b its bias)
import numpy as np


def sigmoid(x):
    x = np.clip(x, -500, 500)
    return 1 / (1 + np.exp(-x))


def cls_probability(h_cls, w, b):
    return sigmoid(np.dot(h_cls, w) + b)
