# question: sequence_cross_entropy
# fails: test_large_logits_stay_finite
# public: must give a finite loss
# diagnosis: ce_naive_softmax
import numpy as np
def sequence_cross_entropy(logits, labels):
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        p = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
        return float(-np.mean(np.log(p[np.arange(len(labels)), labels])))
