# question: sinusoidal_pe
# fails: test_values, test_relative_position_figures
# public: the first pair turns at rate 1
# diagnosis: pe_exponent_per_column
# each column j gets its own frequency 10000^(j/d): the odd (cosine) columns are off by one step
import numpy as np


def _check(n_pos, d):
    if not isinstance(d, int) or isinstance(d, bool) or d <= 0 or d % 2:
        raise ValueError("d must be a positive even int")
    if not isinstance(n_pos, int) or isinstance(n_pos, bool) or n_pos < 0:
        raise ValueError("n_pos must be an int >= 0")


def sinusoidal_pe(n_pos, d):
    _check(n_pos, d)
    angle = np.arange(n_pos)[:, None] / 10000 ** (np.arange(d) / d)  # (n_pos, d)
    pe = np.sin(angle)
    pe[:, 1::2] = np.cos(angle[:, 1::2])
    return pe
