# question: scaled_dot_product_attention
# fails: test_values_with_masks, test_seed_table_causal
# public: must get weight 0
# makes: sdpa_mask_read_as_keep
# the additive mask read as a keep-mask, -1e9 where it is 0 (labelled () until
# sdpa_mask_read_as_keep was declared, as sdpa_annotated_masked_fill)
# split: measure
# source: meme2515/transformer_pytorch, model.py (attention, handed d_k = q.size(-1) as its callers do)
import math

import torch
import torch.nn.functional as F


def attention(q, k, v, d_k, mask=None):
    scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(d_k)
    if mask is not None:
        scores = scores.masked_fill(mask == 0, -1e9)
    attn_weights = F.softmax(scores, dim=-1)
    output = torch.matmul(attn_weights, v)
    return output, attn_weights


def scaled_dot_product_attention(q, k, v, mask=None):
    return attention(q, k, v, q.size(-1), mask)
