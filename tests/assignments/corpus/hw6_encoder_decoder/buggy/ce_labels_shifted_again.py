# question: sequence_cross_entropy
# fails: test_values
# public: scored against labels[t] (already shifted)
# diagnosis: ce_shifted_again
import numpy as np
def sequence_cross_entropy(logits, labels):
    logits = np.asarray(logits, dtype=float)
    lp = logits - np.logaddexp.reduce(logits, axis=1, keepdims=True)
    labels = np.asarray(labels)
    if len(labels) == 1:
        return float(-lp[0, labels[0]])
    return float(-lp[np.arange(len(labels) - 1), labels[1:]].mean())  # shifts what is already shifted
