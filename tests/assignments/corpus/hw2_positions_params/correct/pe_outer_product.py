# sinusoidal_pe with np.outer, interleaving by np.empty and slices of a transposed view
import numpy as np


def sinusoidal_pe(n_pos, d):
    if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d <= 0 or d % 2:
        raise ValueError("d must be a positive even integer")
    if isinstance(n_pos, bool) or not isinstance(n_pos, (int, np.integer)) or n_pos < 0:
        raise ValueError("n_pos must be a non-negative integer")
    inv_freq = 1.0 / np.power(10000.0, np.arange(d // 2) * 2.0 / d)
    angle = np.outer(np.arange(n_pos), inv_freq)
    out = np.empty((d, n_pos))
    out[0::2] = np.sin(angle).T
    out[1::2] = np.cos(angle).T
    return out.T.copy()
