# question: sinusoidal_pe
# fails: test_rejects_bad_d, test_rejects_non_integers
# public: -
# makes: pe_d_unchecked, pe_types_unchecked
# source: JimHyw/Transformer, src/positional_encoding.py (positional_encoding(seq_len, d_model))
import numpy as np


def sinusoidal_pe(n_pos, d):
    pos = np.arange(n_pos)[:, np.newaxis]
    div_term = np.exp(np.arange(0, d, 2) * (-np.log(10000.0) / d))
    pe = np.zeros((n_pos, d))
    pe[:, 0::2] = np.sin(pos * div_term)
    pe[:, 1::2] = np.cos(pos * div_term)
    return pe
