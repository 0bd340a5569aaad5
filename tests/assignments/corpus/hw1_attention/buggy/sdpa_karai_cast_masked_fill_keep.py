# question: scaled_dot_product_attention
# fails: test_values_with_masks, test_seed_table_causal
# public: must get weight 0
# makes: sdpa_mask_read_as_keep
# batch blind-H2 (labelled before grading)
# split: measure
# source: DrHomeRender/karai_cast, util/ScaledDotProductAttention.py (ScaledDotProductAttention.forward
# source: as a function: Q, K, V are q, k, v)
import math

import torch


def scaled_dot_product_attention(q, k, v, mask=None):
    Q, K, V = q, k, v
    d_k = Q.size(-1)
    scores = torch.matmul(Q, K.transpose(-2, -1)) / math.sqrt(d_k)
    if mask is not None:
        scores = scores.masked_fill(mask == 0, -1e9)
    attn = torch.softmax(scores, dim=-1)
    return torch.matmul(attn, V), attn
