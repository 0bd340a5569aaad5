# question: sinusoidal_pe
# fails: test_rejects_bad_d, test_rejects_non_integers
# public: -
# diagnosis: pe_d_unchecked, pe_types_unchecked
# unchecked: the odd-d test names d, the non-int one the types (both are true)
# no argument checks at all (numpy happens to raise for some bad inputs, not all)
import numpy as np


def sinusoidal_pe(n_pos, d):
    angle = np.arange(n_pos)[:, None] / 10000 ** (np.arange(0, d, 2) / d)
    pe = np.zeros((n_pos, d))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    return pe
