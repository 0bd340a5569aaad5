# question: sinusoidal_pe
# fails: test_type_shape_dtype, test_values, test_large_positions
# public: not float64
# diagnosis: pe_float32
# a float32 array (the usual dtype for a model's inputs), not the float64 asked for
import numpy as np


def _check(n_pos, d):
    if not isinstance(d, int) or isinstance(d, bool) or d <= 0 or d % 2:
        raise ValueError("d must be a positive even int")
    if not isinstance(n_pos, int) or isinstance(n_pos, bool) or n_pos < 0:
        raise ValueError("n_pos must be an int >= 0")


def sinusoidal_pe(n_pos, d):
    _check(n_pos, d)
    angle = np.arange(n_pos)[:, None] / 10000 ** (np.arange(0, d, 2) / d)
    pe = np.zeros((n_pos, d), dtype=np.float32)
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    return pe
