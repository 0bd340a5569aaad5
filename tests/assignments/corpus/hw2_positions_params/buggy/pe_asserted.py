# question: sinusoidal_pe
# fails: test_rejects_bad_d, test_rejects_negative_n_pos, test_rejects_non_integers
# public: AssertionError
# diagnosis: pe_asserted
# every check written as an assert
import numpy as np


def sinusoidal_pe(n_pos, d):
    assert type(d) is int and d > 0 and d % 2 == 0, "d must be a positive even int"
    assert type(n_pos) is int and n_pos >= 0, "n_pos must be an int >= 0"
    angle = np.arange(n_pos, dtype=np.float64)[:, None] / 10000.0 ** (np.arange(0, d, 2) / d)
    pe = np.zeros((n_pos, d))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    return pe
