# question: TinySelfAttn
# fails: test_parameters, test_matches_reference_without_mask, test_matches_reference_with_causal_mask, test_bidirectional_influence, test_rejects_indivisible_heads
# public: parameters are
# public: AssertionError
# makes: tsa_qkv_bias, tsa_asserted
# batch F (labelled before grading)
# an assert (AssertionError: labelled tsa_unchecked, the nearest declared mistake then,
# until tsa_asserted was declared from timm's); qkv(x) read per head as [q_i k_i v_i]
# blocks, and the mask read as a keep-mask (no diagnosis for either)
# source: Khurram-Devs/Transformer-Neural-Network, multi_head_attention.py and global_functions.py
# source: (MultiHeadAttention with its scaled_dot_product: d_model and num_heads are h and heads,
# source: qkv_layer and output_layer the stub's qkv and out)
import math
from typing import Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import Tensor


def scaled_dot_product(
    q: Tensor, k: Tensor, v: Tensor, mask: Optional[Tensor] = None
) -> Tuple[Tensor, Tensor]:
    d_k = q.size(-1)
    scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(d_k)

    if mask is not None:
        if mask.dim() == 3:
            mask = mask.unsqueeze(1)
        scores = scores.masked_fill(mask == 0, float("-inf"))

    attention = F.softmax(scores, dim=-1)
    output = torch.matmul(attention, v)
    return output, attention


class TinySelfAttn(nn.Module):
    def __init__(self, h: int, heads: int):
        super().__init__()
        d_model, num_heads = h, heads
        assert d_model % num_heads == 0
        self.d_model = d_model
        self.num_heads = num_heads
        self.head_dim = d_model // num_heads

        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, x: Tensor, mask: Tensor = None) -> Tensor:
        b, t, _ = x.size()

        qkv = self.qkv(x)
        qkv = qkv.view(b, t, self.num_heads, 3 * self.head_dim)
        qkv = qkv.permute(0, 2, 1, 3)
        q, k, v = qkv.chunk(3, dim=-1)

        context, _ = scaled_dot_product(q, k, v, mask)

        context = context.permute(0, 2, 1, 3).contiguous()
        context = context.view(b, t, self.d_model)

        return self.out(context)
