# question: sinusoidal_pe
# fails: test_position_zero, test_values
# public: position 0 should be (sin 0, cos 0)
# diagnosis: pe_from_one
# positions counted from 1 instead of 0
import numpy as np


def _check(n_pos, d):
    if not isinstance(d, int) or isinstance(d, bool) or d <= 0 or d % 2:
        raise ValueError("d must be a positive even int")
    if not isinstance(n_pos, int) or isinstance(n_pos, bool) or n_pos < 0:
        raise ValueError("n_pos must be an int >= 0")


def sinusoidal_pe(n_pos, d):
    _check(n_pos, d)
    angle = np.arange(1, n_pos + 1)[:, None] / 10000 ** (np.arange(0, d, 2) / d)
    pe = np.zeros((n_pos, d))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    return pe
