# question: sequence_cross_entropy
# fails: test_uniform_logits_give_log_v, test_values, test_large_logits_stay_finite
# public: equal logits over 4 tokens give log 4
# public: losses 0 and 1000, mean 500
# makes: -
# -log(softmax + 1e-5): capped near 11.5 where the softmax underflows (no diagnosis)
# source: vanqaq/hm1, loss.py (CrossEntropyLoss and its softmax)
import numpy as np


def softmax(x):
    max_x = np.max(x, axis=1).reshape(-1, 1)
    x = np.exp(x - max_x) / np.sum(np.exp(x - max_x), axis=1, keepdims=True)
    return x


def sequence_cross_entropy(logits, labels):
    y_hat = softmax(logits)
    loss = 0
    for i, j in enumerate(labels):
        loss += -np.log(y_hat[i, j] + 1e-05)
    return loss / len(labels)
