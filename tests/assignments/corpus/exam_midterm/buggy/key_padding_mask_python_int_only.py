# question: key_padding_mask
# fails: test_accepts_integer_array
# diagnosis: mask_python_int_only
# Validates n_src as a Python int: n_src = lengths.max(), a numpy integer, is refused.
import numpy as np


def key_padding_mask(lengths, n_src):
    if not isinstance(n_src, int):
        raise TypeError("n_src must be an int")
    lengths = np.asarray(lengths)
    if lengths.ndim != 1 or lengths.min() < 1 or lengths.max() > n_src:
        raise ValueError("lengths must lie in [1, n_src]")
    mask = np.zeros((len(lengths), n_src))
    for b, length in enumerate(lengths):
        mask[b, length:] = -np.inf
    return mask
