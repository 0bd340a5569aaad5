"""Reference solution of hw1_attention, checked against torch's own modules in tests/."""
from __future__ import annotations

import math

import torch
from torch import nn


def causal_mask(n: int) -> torch.Tensor:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be an int >= 1, got {n!r}")
    return torch.triu(torch.full((n, n), float("-inf")), diagonal=1)


def scaled_dot_product_attention(q, k, v, mask=None):
    d_k = q.shape[-1]
    scores = q @ k.transpose(-2, -1) / math.sqrt(d_k)  # (..., n_q, n_k)
    if mask is not None:
        scores = scores + mask
    weights = torch.softmax(scores, dim=-1)  # softmax subtracts the row max: stable
    return weights @ v, weights  # (..., n_q, d_v), (..., n_q, n_k)


class TinySelfAttn(nn.Module):
    def __init__(self, h: int, heads: int):
        super().__init__()
        if h % heads != 0:
            raise ValueError(f"h={h} is not divisible by heads={heads}")
        self.heads = heads
        self.qkv = nn.Linear(h, 3 * h, bias=False)
        self.out = nn.Linear(h, h)

    def forward(self, x, mask=None):
        B, T, h = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)  # each (B, T, h)
        split = lambda t: t.view(B, T, self.heads, h // self.heads).transpose(1, 2)  # (B, nh, T, hs)
        out, _ = scaled_dot_product_attention(split(q), split(k), split(v), mask)
        return self.out(out.transpose(1, 2).reshape(B, T, h))  # heads concatenated in order
