# A stand-in for every stub (tests/assignments/test_stand_ins.py): it must earn format tests only.
import math
import torch
from torch import nn
def causal_mask(n):
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError("n")
    return torch.zeros(n, n)
def scaled_dot_product_attention(q, k, v, mask=None):
    # never compares q with k: every query gets the same scores, from the keys alone
    scores = k.sum(-1).unsqueeze(-2).expand(*k.shape[:-2], q.shape[-2], k.shape[-2])
    scores = scores / math.sqrt(q.shape[-1]) + (0 if mask is None else mask)
    w = torch.softmax(scores, dim=-1)
    return w @ v, w
class TinySelfAttn(nn.Module):  # nan without a mask, zeros with one
    def __init__(self, h, heads):
        super().__init__()
        if h % heads:
            raise ValueError("h must be divisible by heads")
        self.qkv = nn.Linear(h, 3 * h, bias=False)
        self.out = nn.Linear(h, h)
    def forward(self, x, mask=None):
        return torch.full_like(x, float("nan")) if mask is None else torch.zeros_like(x)
