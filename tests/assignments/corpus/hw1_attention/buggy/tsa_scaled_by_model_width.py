# question: TinySelfAttn
# fails: test_matches_reference_without_mask, test_matches_reference_with_causal_mask
# public: -
# diagnosis: tsa_by_model_width
import math
import torch
from torch import nn


class TinySelfAttn(nn.Module):
    def __init__(self, h, heads):
        super().__init__()
        if h % heads:
            raise ValueError("indivisible")
        self.heads = heads
        self.qkv = nn.Linear(h, 3 * h, bias=False)
        self.out = nn.Linear(h, h)

    def forward(self, x, mask=None):
        B, T, h = x.shape
        split = lambda t: t.view(B, T, self.heads, -1).transpose(1, 2)
        q, k, v = (split(t) for t in self.qkv(x).chunk(3, dim=-1))
        s = q @ k.transpose(-2, -1) / math.sqrt(h)  # should be the head size h / heads
        if mask is not None:
            s = s + mask
        y = torch.softmax(s, -1) @ v
        return self.out(y.transpose(1, 2).reshape(B, T, h))
