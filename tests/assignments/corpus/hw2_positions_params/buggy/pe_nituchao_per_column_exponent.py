# question: sinusoidal_pe
# fails: test_type_shape_dtype, test_position_zero, test_values, test_no_positions, test_relative_position_figures, test_rejects_bad_d, test_rejects_negative_n_pos, test_rejects_non_integers
# public: dtype float32
# public: (sin 0, cos 0) = (0, 1)
# public: should raise ValueError
# makes: pe_exponent_per_column, pe_float32, pe_rejects_zero, pe_d_unchecked, pe_types_unchecked
# also row 0 left all zeros (cos 0 = 1 missing); n_pos = 0 raises IndexError
# split: measure
# source: nituchao/nituchao-deeplearning, pytorch/transformer_explain/positional_embedding.py
# source: (PositionalEmbedding.__init__'s pos_table with max_len = n_pos and d_model = d, returned as
# source: the torch.FloatTensor it stores, made a NumPy array; .cuda() and the dropout left out)
import numpy as np
import torch


def sinusoidal_pe(n_pos, d):
    d_model, max_len = d, n_pos
    pos_table = np.array([
        [pos / np.power(10000, 2 * i / d_model) for i in range(d_model)]
        if pos != 0 else np.zeros(d_model) for pos in range(max_len)])
    pos_table[1:, 0::2] = np.sin(pos_table[1:, 0::2])    # 字嵌入维度为偶数时
    pos_table[1:, 1::2] = np.cos(pos_table[1:, 1::2])    # 字嵌入维度为奇数时
    return torch.FloatTensor(pos_table).numpy()
