# question: sequence_cross_entropy
import numpy as np
def sequence_cross_entropy(logits, labels):
    logits = np.asarray(logits, dtype=float)
    lp = logits - np.logaddexp.reduce(logits, axis=0, keepdims=True)
    return float(-lp[np.arange(len(labels)), labels].mean())
