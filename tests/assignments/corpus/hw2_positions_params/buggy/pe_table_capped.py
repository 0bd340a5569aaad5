# question: sinusoidal_pe
# fails: test_large_positions
# public: -
# one table of 2^15 positions built per d and sliced, as a model's position buffer
# (max_len) is: right up to position 32,767, too short beyond it
import numpy as np

MAX_LEN = 1 << 15
_TABLES = {}


def sinusoidal_pe(n_pos, d):
    if not isinstance(d, int) or isinstance(d, bool) or d <= 0 or d % 2:
        raise ValueError("d must be a positive even int")
    if not isinstance(n_pos, int) or isinstance(n_pos, bool) or n_pos < 0:
        raise ValueError("n_pos must be an int >= 0")
    if d not in _TABLES:
        angle = np.arange(MAX_LEN)[:, None] / 10000.0 ** (np.arange(0, d, 2) / d)
        table = np.empty((MAX_LEN, d))
        table[:, 0::2], table[:, 1::2] = np.sin(angle), np.cos(angle)
        _TABLES[d] = table
    return _TABLES[d][:n_pos].copy()
