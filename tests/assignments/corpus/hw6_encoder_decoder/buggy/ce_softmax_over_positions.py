# question: sequence_cross_entropy
# fails: test_uniform_logits_give_log_v, test_values
# public: equal logits over 4 tokens give log 4
# diagnosis: ce_over_positions
import numpy as np
def sequence_cross_entropy(logits, labels):
    logits = np.asarray(logits, dtype=float)
    lp = logits - np.logaddexp.reduce(logits, axis=0, keepdims=True)
    return float(-lp[np.arange(len(labels)), labels].mean())
