# question: TinySelfAttn
# fails: test_matches_reference_without_mask, test_matches_reference_with_causal_mask, test_bidirectional_influence, test_rejects_indivisible_heads
# public: should raise ValueError
# makes: tsa_unchecked
# batch blind-H2 (labelled before grading)
# no divisibility check; also the mask is never read and dropout (0.1 on the weights, 0.2
# on the output) stays on in training mode (no diagnosis)
# split: measure
# source: AliManjotho/3dposeref, models/multiheadselfattention.py (MultiHeadSelfAttention: dim and
# source: num_heads are h and heads, qkv_bias and qk_scale left at their defaults, proj the stub's out;
# source: forward takes the stub's mask argument, which the source has no place for)
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinySelfAttn(nn.Module):
    def __init__(self, h, heads, qkv_bias=False, qk_scale=None):
        super().__init__()
        dim, num_heads = h, heads
        self.num_heads = num_heads
        head_dim = dim // num_heads

        self.scale = qk_scale or head_dim ** -0.5

        self.qkv = nn.Linear(dim, dim * 3, bias=qkv_bias)
        self.dropout_atten = nn.Dropout(0.1)
        self.out = nn.Linear(dim, dim)
        self.dropout_proj = nn.Dropout(0.2)

    def forward(self, x, mask=None):
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.num_heads, C // self.num_heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]

        attn = (q @ k.transpose(-2, -1)) * self.scale
        attn = attn.softmax(dim=-1)

        attn = self.dropout_atten(attn)

        x = (attn @ v).transpose(1, 2).reshape(B, N, C)
        x = self.out(x)
        x = self.dropout_proj(x)
        return x
