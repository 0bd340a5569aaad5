# A stand-in for some stubs (tests/assignments/test_stand_ins.py): it must earn format tests only on them.
import numpy as np
def key_padding_mask(lengths, n_src):
    lengths = [int(n) for n in lengths]
    if any(not 1 <= n <= n_src for n in lengths):
        raise ValueError("lengths")
    return np.zeros((len(lengths), n_src))  # hides nothing
def perplexity(logits, labels, ignore_index=-100):
    if np.all(np.asarray(labels) == ignore_index):
        raise ValueError("nothing to score")
    return 1.0  # a perplexity, of nothing
