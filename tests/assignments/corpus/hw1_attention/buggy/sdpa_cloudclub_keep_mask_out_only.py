# question: scaled_dot_product_attention
# fails: test_shapes, test_values_without_mask, test_values_with_masks, test_keyword_mask, test_large_scores_stay_finite, test_large_scores_stay_finite_with_mask, test_seed_tables, test_seed_table_causal
# public: return the pair (out, weights)
# makes: sdpa_mask_read_as_keep, sdpa_out_only
# batch F (labelled before grading)
# split: measure
# source: CloudClub-uoft/Title-Generator, scaled_dot_attention.py (attention, handed d_k = k.shape[-1]
# source: as its own example does; no dropout)
import torch
from math import sqrt
import torch.nn.functional as F

def attention(q, k, v, d_k, mask=None, dropout=None):
    scaled_dot = torch.matmul(q, k.transpose(-2, -1)) / sqrt(d_k)
    if mask is not None:
        scaled_dot = scaled_dot.masked_fill(mask == 0, -1e9)
    scaled_dot = F.softmax(scaled_dot, dim=-1)
    if dropout is not None:
        scaled_dot = dropout(scaled_dot)
    output =  torch.matmul(scaled_dot, v)
    return output


def scaled_dot_product_attention(q, k, v, mask=None):
    return attention(q, k, v, k.shape[-1], mask=mask)
