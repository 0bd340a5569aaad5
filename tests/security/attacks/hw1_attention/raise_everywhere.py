# expect: zero
# Every answer raises ValueError: tests of rejecting bad input must not pay for it.
import torch
def causal_mask(n):
    raise ValueError("no")
def scaled_dot_product_attention(q, k, v, mask=None):
    raise ValueError("no")
class TinySelfAttn(torch.nn.Module):
    def __init__(self, h, heads):
        raise ValueError("no")
