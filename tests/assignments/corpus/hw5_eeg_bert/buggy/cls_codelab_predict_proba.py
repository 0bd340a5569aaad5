# question: cls_probability
# fails: test_extreme_logits
# public: must stay finite for large logits
# makes: cls_overflows
# split: measure
# source: htang7415/Code-Lab, modules/ml/models/logistic-regression/python/logistic_regression.py
# source: (predict_proba(x, w, b) as it is: h_cls is x)
import math


def predict_proba(x: list[float], w: list[float], b: float) -> float:
    z = sum(wi * xi for wi, xi in zip(w, x)) + b
    return 1 / (1 + math.exp(-z))


def cls_probability(h_cls, w, b):
    return predict_proba(h_cls, w, b)
