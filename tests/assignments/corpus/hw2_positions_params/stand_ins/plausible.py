# A stand-in for some stubs (tests/assignments/test_stand_ins.py): it must earn format tests only on them.
import numpy as np
def sinusoidal_pe(n_pos, d):
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (n_pos, d)) \
            or d < 1 or d % 2 or n_pos < 0:
        raise ValueError("n_pos and d")
    return np.zeros((n_pos, d))
def encoder_layer_param_count(d, d_ff=None):
    return 12 * d + (4 * d if d_ff is None else d_ff)  # grows with d, but no matrix
def decoder_layer_param_count(d, d_ff=None):
    return 16 * d + (4 * d if d_ff is None else d_ff)
