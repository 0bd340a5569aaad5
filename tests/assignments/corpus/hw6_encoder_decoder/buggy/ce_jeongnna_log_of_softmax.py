# question: sequence_cross_entropy
# fails: test_values, test_large_logits_stay_finite
# public: 'list' object has no attribute 'shape'
# makes: ce_naive_softmax
# batch F (labelled before grading)
# also labels read with y.shape, so a list of labels raises (no diagnosis)
# source: jeongnna/nn, nn/losses.py, nn/math.py and nn/metrics.py (SoftmaxCrossEntropy.forward with its
# source: softmax and cross_entropy; out and y are the logits and labels)
import numpy as np


def softmax(x):
    exps = np.exp(x - np.max(x, axis=1, keepdims=True))
    probs = exps / np.sum(exps, axis=1, keepdims=True)

    return probs


def cross_entropy(probs, y): # https://deepnotes.io/softmax-crossentropy
    N = y.shape[0]

    log_likelihood = -np.log(probs[range(N), y])

    return np.sum(log_likelihood) / N


def sequence_cross_entropy(logits, labels):
    probs = softmax(logits)

    return cross_entropy(probs, labels)
