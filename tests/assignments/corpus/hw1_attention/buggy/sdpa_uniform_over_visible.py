# question: scaled_dot_product_attention
# fails: test_values_without_mask, test_values_with_masks, test_keyword_mask, test_large_scores_stay_finite, test_large_scores_stay_finite_with_mask, test_seed_tables, test_seed_table_causal
# public: -
# a stand-in that never compares q with k: every key the mask leaves visible gets the
# same weight, so out is the average of the visible values; right shapes, right
# masking, no attention: it earns test_shapes only
import torch


def scaled_dot_product_attention(q, k, v, mask=None):
    scores = torch.zeros(*q.shape[:-1], k.shape[-2], dtype=q.dtype)  # (..., n_q, n_k)
    if mask is not None:
        scores = scores + mask
    weights = torch.softmax(scores, dim=-1)
    return weights @ v, weights
