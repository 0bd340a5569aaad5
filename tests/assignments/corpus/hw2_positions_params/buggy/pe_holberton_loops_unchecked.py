# question: sinusoidal_pe
# fails: test_rejects_bad_d, test_rejects_non_integers
# public: d must be even
# makes: pe_d_unchecked, pe_types_unchecked
# source: Aminekham/holbertonschool-machine_learning, supervised_learning/attention/4-positional_encoding.py
# source: (positional_encoding(max_seq_len, dm))
import numpy as np


def sinusoidal_pe(n_pos, d):
    table = np.zeros((n_pos, d))
    for i in range(d):
        for pos in range(n_pos):
            table[pos, i] = pos / np.power(10000, (2 * (i // 2) / d))
    table[:, 0::2] = np.sin(table[:, 0::2])
    table[:, 1::2] = np.cos(table[:, 1::2])
    return table
