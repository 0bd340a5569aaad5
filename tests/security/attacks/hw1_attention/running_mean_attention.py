# expect: partial TinySelfAttn
# with: reference
# score: 13
# A TinySelfAttn with the right parameters whose output is a mean of its input
# (over all positions without a mask, a running mean with one): not attention.
import torch
from torch import nn
class TinySelfAttn(nn.Module):
    def __init__(self, h, heads):
        super().__init__()
        if h % heads != 0:
            raise ValueError("h must be divisible by heads")
        self.qkv = nn.Linear(h, 3 * h, bias=False)
        self.out = nn.Linear(h, h)
    def forward(self, x, mask=None):
        if mask is None:
            return x.mean(dim=1, keepdim=True).expand_as(x)
        steps = torch.arange(1, x.shape[1] + 1, dtype=x.dtype).view(1, -1, 1)
        return x.cumsum(dim=1) / steps
