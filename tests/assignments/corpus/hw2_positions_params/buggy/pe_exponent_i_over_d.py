# question: sinusoidal_pe
# fails: test_values, test_relative_position_figures
# public: -
# diagnosis: pe_exponent_i_over_d
# 10000^(i/d) with i the pair index: the 2 of 2i/d is lost, frequencies fall too slowly
import numpy as np


def _check(n_pos, d):
    if not isinstance(d, int) or isinstance(d, bool) or d <= 0 or d % 2:
        raise ValueError("d must be a positive even int")
    if not isinstance(n_pos, int) or isinstance(n_pos, bool) or n_pos < 0:
        raise ValueError("n_pos must be an int >= 0")


def sinusoidal_pe(n_pos, d):
    _check(n_pos, d)
    angle = np.arange(n_pos)[:, None] / 10000 ** (np.arange(d // 2) / d)
    pe = np.zeros((n_pos, d))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    return pe
