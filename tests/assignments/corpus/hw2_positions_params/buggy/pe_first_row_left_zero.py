# question: sinusoidal_pe
# fails: test_position_zero, test_values, test_no_positions, test_relative_position_figures, test_rejects_bad_d, test_rejects_negative_n_pos, test_rejects_non_integers
# public: position 0 should be
# public: d must be even
# makes: pe_d_unchecked, pe_types_unchecked
# source: seasa2016/code_test, pytorch/encode_test.py (position_enc, as a function of n_pos and d)
import numpy as np


def sinusoidal_pe(n_pos, d):
    position_enc = np.array([
        [pos / np.power(10000, 2 * (j // 2) / d) for j in range(d)]
        if pos != 0 else np.zeros(d) for pos in range(n_pos)])
    position_enc[1:, 0::2] = np.sin(position_enc[1:, 0::2])  # dim 2i
    position_enc[1:, 1::2] = np.cos(position_enc[1:, 1::2])  # dim 2i+1
    return position_enc
