# question: TinySelfAttn
# fails: test_parameters, test_matches_reference_without_mask, test_matches_reference_with_causal_mask, test_bidirectional_influence
# public: qkv.bias
# diagnosis: tsa_qkv_bias
from torch import nn


class TinySelfAttn(nn.Module):
    def __init__(self, h, heads):
        super().__init__()
        if h % heads:
            raise ValueError("indivisible")
        self.heads = heads
        self.qkv = nn.Linear(h, 3 * h)  # an extra bias the contract does not have
        self.out = nn.Linear(h, h)

    def forward(self, x, mask=None):
        B, T, h = x.shape
        split = lambda t: t.view(B, T, self.heads, -1).transpose(1, 2)
        q, k, v = (split(t) for t in self.qkv(x).chunk(3, dim=-1))
        y, _ = scaled_dot_product_attention(q, k, v, mask)
        return self.out(y.transpose(1, 2).reshape(B, T, h))
