# question: sinusoidal_pe
# fails: test_no_positions
# public: -
# diagnosis: pe_rejects_zero
# n_pos = 0 rejected, though an empty (0, d) table is a valid answer
import numpy as np


def sinusoidal_pe(n_pos, d):
    if not isinstance(d, int) or d <= 0 or d % 2:
        raise ValueError('d must be a positive even int')
    if not isinstance(n_pos, int) or n_pos < 1:
        raise ValueError('n_pos must be positive')
    angle = np.arange(n_pos)[:, None] / 10000 ** (np.arange(0, d, 2) / d)
    pe = np.zeros((n_pos, d))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    return pe
