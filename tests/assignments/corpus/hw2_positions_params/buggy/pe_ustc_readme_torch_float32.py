# question: sinusoidal_pe
# fails: test_values, test_large_positions, test_rejects_bad_d, test_rejects_negative_n_pos, test_rejects_non_integers
# public: must match the existing size
# makes: pe_float32_torch, pe_d_unchecked, pe_types_unchecked
# batch G3 (labelled before grading)
# torch float32 table converted at the end; an odd d a RuntimeError, d = 0 a
# ZeroDivisionError, a float n_pos a TypeError
# split: measure
# source: poetrilin/ai_2024_USTC, part_2/README.md (the positional encoding snippet: seq_len and
# source: dim_embed are n_pos and d; returned as the float64 NumPy array the stub returns, without
# source: the batch axis the snippet adds with unsqueeze(1))
import math

import torch


def sinusoidal_pe(n_pos, d):
    seq_len, dim_embed = n_pos, d
    encodings = torch.zeros(seq_len, dim_embed)
    position = torch.arange(0, seq_len, dtype=torch.float32).unsqueeze(1)
    two_i = torch.arange(0, dim_embed, 2, dtype=torch.float32)  # 0, 2, 4, 6, 8, ..., 2*dim_embed
    div_term = torch.exp(two_i*(-math.log(10000.0)/dim_embed)) # 10000^{2i/d_{model}}
    encodings[:, 0::2] = torch.sin(position*div_term)
    encodings[:, 1::2] = torch.cos(position*div_term)
    encodings = encodings.requires_grad_(False)
    return encodings.double().numpy()
