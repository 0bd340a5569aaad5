# question: TinySelfAttn
# fails: test_parameters, test_matches_reference_without_mask, test_matches_reference_with_causal_mask, test_bidirectional_influence, test_rejects_indivisible_heads
# public: parameters are
# public: AssertionError
# makes: tsa_qkv_bias, tsa_asserted
# batch G3 (labelled before grading)
# a biased qkv and an assert; also the mask read as a keep-mask (masked_fill(mask == 0,
# -inf)), with no TinySelfAttn diagnosis for it
# split: measure
# source: Md-Salih/Autoencoding, transformer-encoder-autoencoding/attention.py (MultiHeadSelfAttention:
# source: d_model and n_heads are h and heads; forward returns its output only, as the stub does,
# source: not the pair (out, attn_weights))
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinySelfAttn(nn.Module):
    def __init__(self, h, heads):
        super().__init__()
        d_model, n_heads = h, heads
        assert d_model % n_heads == 0
        self.d_k = d_model // n_heads
        self.n_heads = n_heads
        self.qkv = nn.Linear(d_model, d_model * 3)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, x, mask=None):
        B, T, C = x.size()
        qkv = self.qkv(x).reshape(B, T, 3, self.n_heads, self.d_k)
        q, k, v = qkv.unbind(dim=2)
        q = q.transpose(1, 2)
        k = k.transpose(1, 2)
        v = v.transpose(1, 2)
        attn_scores = (q @ k.transpose(-2, -1)) / (self.d_k ** 0.5)
        if mask is not None:
            attn_scores = attn_scores.masked_fill(mask == 0, float('-inf'))
        attn_weights = F.softmax(attn_scores, dim=-1)
        attn_out = (attn_weights @ v).transpose(1, 2).contiguous().reshape(B, T, C)
        out = self.out(attn_out)
        return out
