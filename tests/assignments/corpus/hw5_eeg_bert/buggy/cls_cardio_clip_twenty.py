# question: cls_probability
# fails: test_extreme_logits
# public: -
# makes: -
# batch G2 (labelled before grading)
# the logit clipped to [-20, 20]: off by up to 2e-9 beyond (no diagnosis)
# split: measure
# source: Heena-Solanki12/Cardio-ML-Project, model/LogisticRegression.py (LogisticRegression.predict_proba
# source: with h_cls as X, w its weights and b its bias)
import numpy as np


def sigmoid(x):
    x = np.clip(x, -20, 20)
    return 1 / (1 + np.exp(-x))


def cls_probability(h_cls, w, b):
    linear_pred = np.dot(h_cls, w) + b
    return sigmoid(linear_pred)
