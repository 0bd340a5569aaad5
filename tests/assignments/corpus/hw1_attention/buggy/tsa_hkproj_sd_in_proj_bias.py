# question: TinySelfAttn
# fails: test_parameters, test_matches_reference_without_mask, test_matches_reference_with_causal_mask, test_bidirectional_influence, test_rejects_indivisible_heads
# public: 'qkv.bias'
# public: should raise ValueError
# makes: tsa_qkv_bias, tsa_unchecked
# batch blind-H2 (labelled before grading)
# a biased qkv, no divisibility check; also any mask given is replaced by a causal one of
# its own (its values never read), none given stays bidirectional (no diagnosis)
# split: measure
# source: hkproj/pytorch-stable-diffusion, sd/attention.py (SelfAttention: n_heads and d_embed are
# source: heads and h, in_proj and out_proj the stub's qkv and out; its causal_mask flag is read as
# source: "a mask was given", the stub passing the mask itself)
import math

import torch
from torch import nn
from torch.nn import functional as F


class TinySelfAttn(nn.Module):
    def __init__(self, h, heads, in_proj_bias=True, out_proj_bias=True):
        super().__init__()
        n_heads, d_embed = heads, h
        # This combines the Wq, Wk and Wv matrices into one matrix
        self.qkv = nn.Linear(d_embed, 3 * d_embed, bias=in_proj_bias)
        # This one represents the Wo matrix
        self.out = nn.Linear(d_embed, d_embed, bias=out_proj_bias)
        self.n_heads = n_heads
        self.d_head = d_embed // n_heads

    def forward(self, x, mask=None):
        causal_mask = mask is not None
        # x: # (Batch_Size, Seq_Len, Dim)
        input_shape = x.shape
        batch_size, sequence_length, d_embed = input_shape
        # (Batch_Size, Seq_Len, H, Dim / H)
        interim_shape = (batch_size, sequence_length, self.n_heads, self.d_head)

        # (Batch_Size, Seq_Len, Dim) -> (Batch_Size, Seq_Len, Dim * 3) -> 3 tensor of shape (Batch_Size, Seq_Len, Dim)
        q, k, v = self.qkv(x).chunk(3, dim=-1)

        # (Batch_Size, Seq_Len, Dim) -> (Batch_Size, Seq_Len, H, Dim / H) -> (Batch_Size, H, Seq_Len, Dim / H)
        q = q.view(interim_shape).transpose(1, 2)
        k = k.view(interim_shape).transpose(1, 2)
        v = v.view(interim_shape).transpose(1, 2)

        weight = q @ k.transpose(-1, -2)

        if causal_mask:
            # Mask where the upper triangle (above the principal diagonal) is 1
            mask = torch.ones_like(weight, dtype=torch.bool).triu(1)
            # Fill the upper triangle with -inf
            weight.masked_fill_(mask, -torch.inf)

        # Divide by d_k (Dim / H).
        weight /= math.sqrt(self.d_head)

        weight = F.softmax(weight, dim=-1)

        output = weight @ v
        output = output.transpose(1, 2)
        output = output.reshape(input_shape)
        output = self.out(output)
        return output
