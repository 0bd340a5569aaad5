# question: sinusoidal_pe
# fails: test_type_shape_dtype, test_position_zero, test_values, test_rejects_bad_d, test_rejects_negative_n_pos, test_rejects_non_integers
# public: float32, not float64
# public: d must be even
# makes: pe_halves, pe_float32, pe_d_unchecked, pe_types_unchecked
# batch F (labelled before grading)
# source: adityakanamadi281/NLP_Techniques, Transformers/positional_encoding.py (positional_encoding(max_seq_len,
# source: d_model); the torch.FloatTensor it returns made a NumPy array)
import numpy as np
import torch


def positional_encoding(max_seq_len, d_model):
    pos = np.arange(max_seq_len)[:, np.newaxis]
    i = np.arange(d_model)[np.newaxis, :]
    angle_rates = 1 / np.power(10000, (2 * (i//2)) / np.float32(d_model))
    angle_rads = pos * angle_rates

    sines = np.sin(angle_rads[:, 0::2])
    cosines = np.cos(angle_rads[:, 1::2])

    pos_encoding = np.concatenate([sines, cosines], axis=-1)
    return torch.FloatTensor(pos_encoding)


def sinusoidal_pe(n_pos, d):
    return positional_encoding(n_pos, d).numpy()
