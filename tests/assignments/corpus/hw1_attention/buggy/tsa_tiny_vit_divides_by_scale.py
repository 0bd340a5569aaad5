# question: TinySelfAttn
# fails: test_parameters, test_matches_reference_without_mask, test_matches_reference_with_causal_mask, test_bidirectional_influence, test_rejects_indivisible_heads
# public: parameters are
# public: should raise ValueError
# makes: tsa_unchecked
# batch G3 (labelled before grading)
# h // heads per head and no check (10, 3 builds a 27-wide qkv); also out has no bias and
# the scores are divided by 1 / sqrt(d_k), i.e. multiplied by sqrt(d_k), and the mask is
# never read (no diagnosis for those)
# split: measure
# source: augustwester/tiny-vit, att.py (Attention with dropout 0: dim is h, num_heads heads and
# source: dim_head h // heads; W and out are the stub's qkv and out; einops' two rearranges written
# source: as the reshape/permute they stand for; forward takes the stub's mask, which it never reads)
from torch import nn
from torch.nn.functional import softmax


class TinySelfAttn(nn.Module):
    def __init__(self, h, heads, dropout=0):
        super().__init__()
        dim, num_heads, dim_head = h, heads, h // heads
        self.num_heads = num_heads
        self.qkv = nn.Linear(dim, 3 * num_heads * dim_head, bias=False)
        self.scale = 1 / dim_head ** 0.5
        self.out = nn.Linear(dim_head * num_heads, dim, bias=False)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, mask=None):
        qkv = self.qkv(x)
        # rearrange(qkv, "b t (k h d) -> k b h t d", k=3, h=self.num_heads)
        b, t, _ = qkv.shape
        q, k, v = qkv.reshape(b, t, 3, self.num_heads, -1).permute(2, 0, 3, 1, 4)
        qkT = q @ k.permute(0, 1, 3, 2)
        att = softmax(qkT / self.scale, dim=-1) @ v
        # rearrange(att, "b h t d -> b t (h d)")
        cat = att.permute(0, 2, 1, 3).reshape(b, t, -1)
        return self.dropout(self.out(cat))
