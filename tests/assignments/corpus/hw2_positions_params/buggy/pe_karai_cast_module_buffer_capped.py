# question: sinusoidal_pe
# fails: test_values, test_large_positions, test_relative_position_figures, test_rejects_bad_d, test_rejects_negative_n_pos, test_rejects_non_integers
# public: must match the existing size
# makes: pe_float32_torch, pe_d_unchecked, pe_types_unchecked
# batch blind-H2 (labelled before grading)
# torch float32 table converted at the end; an odd d a RuntimeError, d = 0 an empty table, a
# float n_pos a TypeError; also only 100 rows whatever n_pos (no diagnosis)
# split: measure
# source: DrHomeRender/karai_cast, util/PositionalEncoding.py (PositionalEncoding's pe buffer, built
# source: with its defaults, d_model = d, and sliced to n_pos rows as its forward does; returned as the
# source: float64 NumPy array the stub returns)
import math

import torch
import torch.nn as nn


class PositionalEncoding(nn.Module):  # 위치 정보 함수
    def __init__(self, d_model, dropout=0.1, max_len=100):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)

        # 위치 + 주기 기반 sin/cos 인코딩
        pe = torch.zeros(max_len, d_model)
        position = torch.arange(0, max_len).unsqueeze(1).float()
        div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))

        pe[:, 0::2] = torch.sin(position * div_term)  # 짝수 인덱스
        pe[:, 1::2] = torch.cos(position * div_term)  # 홀수 인덱스

        pe = pe.unsqueeze(0)  # shape: [1, max_len, d_model]
        self.register_buffer('pe', pe)  # gpu를 따라가는 것

    def forward(self, x):  # x: [batch, seq_len, d_model]
        x = x + self.pe[:, :x.size(1), :]
        return self.dropout(x)


def sinusoidal_pe(n_pos, d):
    return PositionalEncoding(d).pe[0, :n_pos, :].double().numpy()
