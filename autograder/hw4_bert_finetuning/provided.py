"""hw4's provided (public, not graded) TinySelfAttn: Part 0 of the notebook,
written here only.

`build` pastes the class into the master (`# build: paste TinySelfAttn from
...` in solutions/hw4_bert_finetuning/), so the student notebook shows exactly
this text; the hidden tests send this whole file into the worker
(common.PROVIDED_SOURCE) and bind the class under its name before the student's
model is built, so the model is graded on the answer cells only. Nothing else
belongs here: every line of it is public.
"""
import torch.nn.functional as F
from torch import nn


class TinySelfAttn(nn.Module):
    """Multi-head self-attention (homework 1), with torch's fused attention."""

    def __init__(self, h, heads):
        super().__init__()
        if h % heads != 0:
            raise ValueError(f"width h={h} must be divisible by heads={heads}")
        self.heads = heads
        self.qkv = nn.Linear(h, 3 * h, bias=False)
        self.out = nn.Linear(h, h)

    def forward(self, x, mask=None):
        B, T, h = x.shape
        queries, keys, values = self.qkv(x).split(h, dim=-1)  # each (B, T, h)
        per_head = lambda t: t.reshape(B, T, self.heads, h // self.heads).transpose(1, 2)
        mixed = F.scaled_dot_product_attention(
            per_head(queries), per_head(keys), per_head(values), attn_mask=mask)  # (B, H, T, h/H)
        return self.out(mixed.transpose(1, 2).reshape(B, T, h))  # (B, T, h)


def provided_attention():
    """What the hidden tests build in the worker: the class above."""
    return TinySelfAttn
