# log-sum-exp by np.logaddexp.reduce, scores cast with astype(float), one row at a time.
import numpy as np


def perplexity(logits, labels, ignore_index=-100):
    logits = np.asarray(logits).astype(float)
    labels = np.asarray(labels)
    total, count = 0.0, 0
    for row, label in zip(logits, labels):
        if label == ignore_index:
            continue
        total += np.logaddexp.reduce(row) - row[label]
        count += 1
    if count == 0:
        raise ValueError("no position to score")
    return float(np.exp(total / count))
