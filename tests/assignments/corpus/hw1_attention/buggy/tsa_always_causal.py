# question: TinySelfAttn
# fails: test_matches_reference_without_mask, test_bidirectional_influence
# public: -
# diagnosis: tsa_always_causal
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
        mask = causal_mask(T)  # GPT-style even when no mask is given
        split = lambda t: t.view(B, T, self.heads, -1).transpose(1, 2)
        q, k, v = (split(t) for t in self.qkv(x).chunk(3, dim=-1))
        y, _ = scaled_dot_product_attention(q, k, v, mask)
        return self.out(y.transpose(1, 2).reshape(B, T, h))
