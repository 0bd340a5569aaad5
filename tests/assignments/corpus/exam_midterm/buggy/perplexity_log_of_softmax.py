# question: perplexity
# fails: test_large_logits_stay_finite
# diagnosis: perplexity_log_of_softmax
# A stable softmax, then its log: a probability below 1e-308 underflows to 0.
import numpy as np


def perplexity(logits, labels, ignore_index=-100):
    logits, labels = np.asarray(logits, dtype=np.float64), np.asarray(labels)
    keep = labels != ignore_index
    if not keep.any():
        raise ValueError("no position to score")
    rows = logits[keep]
    e = np.exp(rows - rows.max(axis=1, keepdims=True))
    probs = e / e.sum(axis=1, keepdims=True)
    return float(np.exp(-np.log(probs[np.arange(len(rows)), labels[keep]]).mean()))
