# question: perplexity
# fails: test_large_logits_stay_finite
# diagnosis: perplexity_no_shift
import numpy as np


def perplexity(logits, labels, ignore_index=-100):
    logits, labels = np.asarray(logits, dtype=np.float64), np.asarray(labels)
    keep = labels != ignore_index
    if not keep.any():
        raise ValueError("no position to score")
    rows = logits[keep]
    log_z = np.log(np.exp(rows).sum(axis=1))  # exp overflows for logits in the thousands
    return float(np.exp((log_z - rows[np.arange(len(rows)), labels[keep]]).mean()))
