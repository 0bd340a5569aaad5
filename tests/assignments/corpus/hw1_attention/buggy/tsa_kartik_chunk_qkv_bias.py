# question: TinySelfAttn
# fails: test_parameters, test_matches_reference_without_mask, test_matches_reference_with_causal_mask, test_bidirectional_influence, test_rejects_indivisible_heads
# public: parameters are
# public: AssertionError
# makes: tsa_qkv_bias, tsa_asserted
# batch G3 (labelled before grading)
# a biased qkv and an assert; also the mask read as a keep-mask (masked_fill(mask == 0,
# -inf)), with no TinySelfAttn diagnosis for it
# split: measure
# source: kartik10sharma/Transformer, models/attention.py (MultiHeadSelfAttention: d_model and
# source: num_heads are h and heads, qkv_proj and out_proj the stub's qkv and out)
import math

import torch
import torch.nn as nn


class TinySelfAttn(nn.Module):
    def __init__(self, h, heads):
        super().__init__()
        d_model, num_heads = h, heads
        assert d_model % num_heads == 0
        self.num_heads = num_heads
        self.head_dim = d_model // num_heads

        self.qkv = nn.Linear(d_model, d_model * 3)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, x, mask=None):
        B, T, C = x.shape
        qkv = self.qkv(x)  # (B, T, 3 * C)
        q, k, v = qkv.chunk(3, dim=-1)

        q = q.view(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        k = k.view(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        v = v.view(B, T, self.num_heads, self.head_dim).transpose(1, 2)

        attn_scores = (q @ k.transpose(-2, -1)) / math.sqrt(self.head_dim)  # (B, heads, T, T)

        if mask is not None:
            attn_scores = attn_scores.masked_fill(mask == 0, float('-inf'))

        attn_weights = torch.softmax(attn_scores, dim=-1)
        attn_output = attn_weights @ v  # (B, heads, T, head_dim)
        attn_output = attn_output.transpose(1, 2).contiguous().view(B, T, C)

        return self.out(attn_output)
