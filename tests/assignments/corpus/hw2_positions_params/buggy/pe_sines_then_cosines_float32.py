# question: sinusoidal_pe
# fails: test_type_shape_dtype, test_position_zero, test_values, test_rejects_bad_d, test_rejects_negative_n_pos, test_rejects_non_integers
# public: dtype float32
# public: d must be even
# makes: pe_halves, pe_float32, pe_d_unchecked, pe_types_unchecked
# source: xingchensong/Speech-Transformer-tf2.0, models/modules/positional_encoding.py (tf.cast to
# source: float32 written as numpy's astype; the leading batch axis dropped)
import numpy as np


def get_angles(pos, i, d_model):
    angle_rates = 1 / np.power(10000, (2 * (i // 2)) / np.float32(d_model))
    return pos * angle_rates


def sinusoidal_pe(n_pos, d):
    angle_rads = get_angles(np.arange(n_pos)[:, np.newaxis],
                            np.arange(d)[np.newaxis, :],
                            d)
    sines = np.sin(angle_rads[:, 0::2])
    cosines = np.cos(angle_rads[:, 1::2])
    pos_encoding = np.concatenate([sines, cosines], axis=-1)
    return pos_encoding.astype(np.float32)
