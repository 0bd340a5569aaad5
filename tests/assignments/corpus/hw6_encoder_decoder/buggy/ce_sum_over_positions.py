# question: sequence_cross_entropy
# fails: test_uniform_logits_give_log_v, test_values
# public: so does their mean
# public: mean 500
# diagnosis: ce_sum
import numpy as np
def sequence_cross_entropy(logits, labels):
    logits = np.asarray(logits, dtype=float)
    lp = logits - np.logaddexp.reduce(logits, axis=1, keepdims=True)
    return float(-lp[np.arange(len(labels)), labels].sum())
