# question: TinySelfAttn
# fails: test_matches_reference_without_mask, test_matches_reference_with_causal_mask
# public: -
# diagnosis: tsa_heads_interleaved
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
        # wrong split: head i takes every heads-th column instead of a contiguous block
        split = lambda t: t.view(B, T, h // self.heads, self.heads).permute(0, 3, 1, 2)
        q, k, v = (split(t) for t in self.qkv(x).chunk(3, dim=-1))
        y, _ = scaled_dot_product_attention(q, k, v, mask)
        return self.out(y.permute(0, 2, 3, 1).reshape(B, T, h))
