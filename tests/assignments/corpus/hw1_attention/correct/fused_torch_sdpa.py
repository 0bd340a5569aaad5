import torch
import torch.nn.functional as F
from torch import nn


class TinySelfAttn(nn.Module):
    def __init__(self, h, heads):
        super().__init__()
        if h % heads != 0:
            raise ValueError("h % heads != 0")
        self.heads = heads
        self.qkv = nn.Linear(h, 3 * h, bias=False)
        self.out = nn.Linear(h, h)

    def forward(self, x, mask=None):
        B, T, h = x.shape
        q, k, v = (t.reshape(B, T, self.heads, -1).permute(0, 2, 1, 3)
                   for t in self.qkv(x).chunk(3, -1))
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        return self.out(y.permute(0, 2, 1, 3).reshape(B, T, h))
