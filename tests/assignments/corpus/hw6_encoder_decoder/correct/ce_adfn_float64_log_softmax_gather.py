# split: measure
# source: AnonKDD1269/ADFN, dfn-grok/utils.py (loss_fn in NumPy: logits.log_softmax written as the
# source: max-shifted log-sum-exp it computes, gather as the row-wise pick; a float returned)
import numpy as np


def loss_fn(logits, labels):
    if len(logits.shape)==3:
        logits = logits[:, -1]
    logits = logits.astype(np.float64)
    m = logits.max(axis=-1, keepdims=True)
    log_probs = logits - m - np.log(np.exp(logits - m).sum(axis=-1, keepdims=True))
    correct_log_probs = np.take_along_axis(log_probs, labels[:, None], axis=-1)[:, 0]
    return -correct_log_probs.mean()


def sequence_cross_entropy(logits, labels):
    return float(loss_fn(np.asarray(logits), np.asarray(labels)))
