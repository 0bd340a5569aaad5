# question: TinySelfAttn
# fails: test_parameters, test_matches_reference_without_mask, test_matches_reference_with_causal_mask, test_bidirectional_influence, test_rejects_indivisible_heads
# public: qkv.bias
# public: n_embd must be divisible by n_head
# makes: tsa_always_causal, tsa_qkv_bias, tsa_unchecked
# a causal mask of its own from a fixed 1024-wide table, whatever mask says; a biased
# qkv; an assert (AssertionError) where the contract wants ValueError
# split: measure
# source: priyangkarghosh/tllm, src/model/attention.py (CasualSelfAttention at 23637eb: config.n_embd
# source: and config.n_head are h and heads, its GPTConfig's block_size 1024 kept; c_attn and c_proj are
# source: the stub's qkv and out; forward takes the stub's mask, which it never reads)
import math

import torch
import torch.nn as nn
from torch.nn import functional as F


class TinySelfAttn(nn.Module):
    def __init__(self, h, heads, block_size=1024):
        super().__init__()

        assert h % heads == 0, "n_embd must be divisible by n_head"

        self.qkv = nn.Linear(h, 3 * h)

        self.out = nn.Linear(h, h)
        self.out.NANOGPT_SCALE_INIT = 1 # no idea what this does

        self.n_head = heads
        self.n_embd = h

        self.register_buffer(
            "bias",
            torch.tril(torch.ones(block_size, block_size))
                .view(1, 1, block_size, block_size)
        )

    def forward(self, x, mask=None):
        B, T, C = x.size()
        H = C // self.n_head

        # project to q, k, v
        qkv = self.qkv(x)
        q, k, v = qkv.split(self.n_embd, dim=2)
        q = q.view(B, T, self.n_head, H).transpose(1, 2)
        k = k.view(B, T, self.n_head, H).transpose(1, 2)
        v = v.view(B, T, self.n_head, H).transpose(1, 2)

        # scaled dot-product attention
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(H))
        att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float('-inf'))
        att = F.softmax(att, dim=-1)

        y = att @ v  # (B, n_head, T, H)
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        y = self.out(y)
        return y
