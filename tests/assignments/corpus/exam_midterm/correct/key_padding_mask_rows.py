# Built row by row from a full -inf table, lengths and n_src taken with operator.index
# (a numpy integer is an int), n_src as wide as it comes.
import operator

import numpy as np


def key_padding_mask(lengths, n_src):
    n_src = operator.index(n_src)
    lengths = [operator.index(length) for length in lengths]
    if any(length < 1 or length > n_src for length in lengths):
        raise ValueError("every length must lie in [1, n_src]")
    mask = np.full((len(lengths), n_src), -np.inf)
    for row, length in zip(mask, lengths):
        row[:length] = 0.0
    return mask
