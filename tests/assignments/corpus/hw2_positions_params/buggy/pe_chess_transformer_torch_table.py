# question: sinusoidal_pe
# fails: test_values, test_large_positions, test_rejects_bad_d, test_rejects_negative_n_pos, test_rejects_non_integers
# public: must match the existing size
# makes: pe_float32_torch, pe_d_unchecked, pe_types_unchecked
# batch G3 (labelled before grading)
# torch float32 table converted at the end; an odd d a RuntimeError, d = 0 a
# ZeroDivisionError, a float n_pos a TypeError
# split: measure
# source: pypi-data/pypi-mirror-276, packages/chess-transformer/chess_transformer-0.1.15.tar.gz/
# source: chess_transformer-0.1.15/src/chess_transformer/pytorch/pos_enc.py (positional_encoding:
# source: max_len and d_model are n_pos and d; returned as the float64 NumPy array the stub returns)
import math

import torch


def positional_encoding(max_len: int, d_model: int):
  position = torch.arange(max_len)[:, None]
  div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
  pe = torch.zeros(max_len, d_model)
  pe[:, 0::2] = torch.sin(position * div_term)
  pe[:, 1::2] = torch.cos(position * div_term)
  return pe


def sinusoidal_pe(n_pos, d):
  return positional_encoding(n_pos, d).double().numpy()
