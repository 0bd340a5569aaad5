# question: perplexity
# fails: test_integer_scores
# diagnosis: perplexity_no_float_cast
# Stable for float scores, but works in the scores' own dtype: int8 scores wrap
# around when the row maximum is subtracted.
import numpy as np


def perplexity(logits, labels, ignore_index=-100):
    logits, labels = np.asarray(logits), np.asarray(labels)
    keep = labels != ignore_index
    if not keep.any():
        raise ValueError("no position to score")
    rows = logits[keep]
    shifted = rows - rows.max(axis=1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    return float(np.exp(-log_probs[np.arange(len(rows)), labels[keep]].mean()))
