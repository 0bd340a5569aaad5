# question: sinusoidal_pe
# fails: test_position_zero, test_values
# public: -
# diagnosis: pe_halves
# all sines first, then all cosines ([sin..., cos...]) instead of interleaved pairs
import numpy as np


def sinusoidal_pe(n_pos, d):
    """All sines first, then all cosines (not interleaved)."""
    if not isinstance(d, int) or d <= 0 or d % 2:
        raise ValueError("d must be a positive even int")
    if not isinstance(n_pos, int) or n_pos < 0:
        raise ValueError("n_pos must be an int >= 0")
    angle = np.arange(n_pos)[:, None] / 10000 ** (np.arange(0, d, 2) / d)
    return np.concatenate([np.sin(angle), np.cos(angle)], axis=1)
