# split: measure
# source: gregclinton/murphy, softmax.py (softmax_cross_entropy_with_logits and its log_softmax: the
# source: labels made the one-hot rows y it takes, and the float answer the mean of its per-row losses)
import numpy as np

def works(x):
    x = np.array(x, dtype = float)
    x = x.T - np.max(x, axis = 1) # prevent overflow
    e = np.exp(x)
    return x, e, np.sum(e, axis = 0)

def softmax(x):
    _, e, s = works(x)
    return (e / s).T

def log_softmax(x):
    x, _, s = works(x)
    return (x - np.log(s)).T

def softmax_cross_entropy_with_logits(x, y):
    return np.array([-y[i].dot(lsm) for i, lsm in enumerate(log_softmax(x))])


def sequence_cross_entropy(logits, labels):
    y = np.eye(np.shape(logits)[1])[np.asarray(labels)]
    return float(np.mean(softmax_cross_entropy_with_logits(logits, y)))
