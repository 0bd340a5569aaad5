# question: sinusoidal_pe
# fails: test_rejects_bad_d, test_rejects_negative_n_pos, test_rejects_non_integers
# public: d must be even
# makes: pe_d_unchecked, pe_types_unchecked
# source: ZiqinZhou66/ZegCLIP, models/decode_heads/utils.py (the TensorFlow tutorial's positional_encoding;
# source: its leading batch axis dropped, as the stub returns (n_pos, d))
import numpy as np


def get_angles(pos, i, d_model):
    angle_rates = 1 / np.power(10000, (2 * (i // 2)) / np.float32(d_model))
    return pos * angle_rates


def sinusoidal_pe(n_pos, d):
    angle_rads = get_angles(np.arange(n_pos)[:, np.newaxis],
                            np.arange(d)[np.newaxis, :],
                            d)
    # apply sin to even indices in the array; 2i
    angle_rads[:, 0::2] = np.sin(angle_rads[:, 0::2])
    # apply cos to odd indices in the array; 2i+1
    angle_rads[:, 1::2] = np.cos(angle_rads[:, 1::2])
    return angle_rads
