# A stand-in for some stubs (tests/assignments/test_stand_ins.py): it must earn format tests only on them.
# right by chance: sequence_cross_entropy::test_uniform_logits_give_log_v
# log V is the right answer for the uniform logits this lesson figure uses
import numpy as np
def cross_attention(y, h, Wq, Wk, Wv, Wo, heads):
    # every decoder position gets the same weights, from the keys alone; out reads y only
    k = (h @ Wk).reshape(len(h), heads, -1)
    s = np.broadcast_to(k.sum(-1).T[:, None, :], (heads, len(y), len(h)))
    w = np.exp(s - s.max(-1, keepdims=True))
    return y @ Wv @ Wo, w / w.sum(-1, keepdims=True)
def sequence_cross_entropy(logits, labels):
    logits = np.asarray(logits, dtype=np.float64)  # stable, but never reads the labels
    top = logits.max(-1, keepdims=True)
    return float(np.mean(top[:, 0] + np.log(np.exp(logits - top).sum(-1))))
