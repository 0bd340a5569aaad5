# question: TinySelfAttn
# fails: test_matches_reference_without_mask, test_matches_reference_with_causal_mask, test_bidirectional_influence, test_rejects_indivisible_heads
# public: should raise ValueError
# makes: tsa_by_model_width, tsa_unchecked
# batch G3 (labelled before grading)
# scale = dim ** -0.5 with dim the model's width; nothing checks h % heads; the mask is
# never read (no diagnosis)
# split: measure
# source: thubZ09/paper-implementations, ViT/model/attention.py (Attention with dropout 0: dim is h,
# source: to_qkv and to_out the stub's qkv and out; forward takes the stub's mask, which it never reads)
import torch
import torch.nn as nn


class TinySelfAttn(nn.Module):
    def __init__(self, h, heads, dropout=0.0):
        super().__init__()
        dim = h
        self.heads = heads
        self.scale = dim ** -0.5

        self.qkv = nn.Linear(dim, dim * 3, bias=False)
        self.out = nn.Linear(dim, dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, mask=None):
        b, n, _, h = *x.shape, self.heads
        qkv = self.qkv(x).chunk(3, dim=-1)
        q, k, v = map(lambda t: t.reshape(b, n, h, -1).transpose(1, 2), qkv)

        dots = torch.matmul(q, k.transpose(-1, -2)) * self.scale
        attn = dots.softmax(dim=-1)
        attn = self.dropout(attn)

        out = torch.matmul(attn, v)
        out = out.transpose(1, 2).reshape(b, n, -1)
        out = self.out(out)
        return out
