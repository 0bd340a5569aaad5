import math
import torch
from torch import nn


class TinySelfAttn(nn.Module):
    def __init__(self, h, heads):
        super().__init__()
        if h % heads:
            raise ValueError("h must be divisible by heads")
        self.h, self.heads = h, heads
        self.qkv = nn.Linear(h, 3 * h, bias=False)
        self.out = nn.Linear(h, h)

    def forward(self, x, mask=None):
        q, k, v = self.qkv(x).split(self.h, dim=-1)
        hs = self.h // self.heads
        outs = []
        for i in range(self.heads):
            cols = slice(i * hs, (i + 1) * hs)
            s = q[..., cols] @ k[..., cols].transpose(1, 2) / math.sqrt(hs)
            if mask is not None:
                s = s + mask
            outs.append(torch.softmax(s, -1) @ v[..., cols])
        return self.out(torch.cat(outs, dim=-1))
