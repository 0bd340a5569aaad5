# question: sinusoidal_pe
# fails: test_rejects_non_integers
# public: -
# diagnosis: pe_types_unchecked
# checks the values of n_pos and d but not their types: 8.0 or '4' slip through or raise TypeError
import numpy as np


def sinusoidal_pe(n_pos, d):
    if d <= 0 or d % 2 != 0:
        raise ValueError('d must be a positive even number')
    if n_pos < 0:
        raise ValueError('n_pos must be >= 0')
    angle = np.arange(n_pos)[:, None] / 10000 ** (np.arange(0, d, 2) / d)
    pe = np.zeros((n_pos, int(d)))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    return pe
