# sinusoidal_pe with the exp/log frequency term of the PyTorch tutorial, in numpy
import math

import numpy as np


def sinusoidal_pe(n_pos, d):
    if not isinstance(d, int) or isinstance(d, bool) or d < 2 or d % 2:
        raise ValueError(f"bad d {d!r}")
    if not isinstance(n_pos, int) or isinstance(n_pos, bool) or n_pos < 0:
        raise ValueError(f"bad n_pos {n_pos!r}")
    position = np.arange(n_pos)[:, np.newaxis]
    div_term = np.exp(np.arange(0, d, 2) * (-math.log(10000.0) / d))
    pe = np.zeros((n_pos, d))
    pe[:, 0::2] = np.sin(position * div_term)
    pe[:, 1::2] = np.cos(position * div_term)
    return pe
