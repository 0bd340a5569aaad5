# question: scaled_dot_product_attention
# fails: test_shapes, test_values_without_mask, test_values_with_masks, test_keyword_mask, test_large_scores_stay_finite, test_large_scores_stay_finite_with_mask, test_seed_tables, test_seed_table_causal
# public: return the pair (out, weights)
# diagnosis: sdpa_out_only
import math
import torch


def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores + mask
    return torch.softmax(scores, dim=-1) @ v
