# question: TinySelfAttn
# fails: test_parameters, test_matches_reference_without_mask, test_matches_reference_with_causal_mask, test_bidirectional_influence, test_rejects_indivisible_heads
# public: 'qkv.bias'
# public: AssertionError
# makes: tsa_qkv_bias, tsa_asserted
# batch blind-H2 (labelled before grading)
# a biased qkv and an assert; also the mask read as a keep-mask (masked_fill(mask == 0,
# -1e9)), with no TinySelfAttn diagnosis for it
# split: measure
# source: DrHomeRender/karai_cast, util/maskSelfAttention.py (MaskedMultiHeadAttention with its
# source: MaskedScaledDotProductAttention: d_model and n_head are h and heads; its q_linear, k_linear and
# source: v_linear are the three chunks of the stub's qkv (same biases), out_proj the stub's out)
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MaskedScaledDotProductAttention(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, Q, K, V, mask=None):
        d_k = Q.size(-1)
        scores = torch.matmul(Q, K.transpose(-2, -1)) / math.sqrt(d_k)

        if mask is not None:
            # mask == 0인 곳은 -1e9로 가려줌 (softmax에서 0으로 만들기)
            scores = scores.masked_fill(mask == 0, -1e9)

        attn = F.softmax(scores, dim=-1)
        output = torch.matmul(attn, V)
        return output, attn


class TinySelfAttn(nn.Module):
    def __init__(self, h, heads):
        super().__init__()
        d_model, n_head = h, heads
        assert d_model % n_head == 0
        self.d_k = self.d_v = d_model // n_head
        self.n_head = n_head

        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)

        self.attention = MaskedScaledDotProductAttention()

    def forward(self, x, mask=None):
        batch_size, seq_len, d_model = x.size()

        Q, K, V = self.qkv(x).chunk(3, dim=-1)

        # (batch, head, seq_len, d_k)
        Q = Q.view(batch_size, seq_len, self.n_head, self.d_k).transpose(1, 2)
        K = K.view(batch_size, seq_len, self.n_head, self.d_k).transpose(1, 2)
        V = V.view(batch_size, seq_len, self.n_head, self.d_k).transpose(1, 2)

        if mask is not None:
            # mask shape: (seq_len, seq_len) → broadcast용 확장
            mask = mask.unsqueeze(0).unsqueeze(1)  # (1, 1, seq_len, seq_len)

        out, attn = self.attention(Q, K, V, mask)  # (batch, head, seq_len, d_k)

        # (batch, seq_len, d_model)
        out = out.transpose(1, 2).contiguous().view(batch_size, seq_len, d_model)
        return self.out(out)
