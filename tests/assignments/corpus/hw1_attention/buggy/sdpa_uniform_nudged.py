# question: scaled_dot_product_attention
# fails: test_values_without_mask, test_values_with_masks, test_keyword_mask, test_large_scores_stay_finite, test_large_scores_stay_finite_with_mask, test_seed_tables, test_seed_table_causal
# public: -
# a stand-in that never compares q with k: the average of the visible values, its
# weights nudged by a hair (1e-4 of a term in the queries' and keys' means) so that
# they move with q and with k; right shapes, right masking, no attention: it earns
# test_shapes only (it earned 5 of 8 when moving at all read as attending)
import torch


def scaled_dot_product_attention(q, k, v, mask=None):
    hair = 1e-4 * (q.mean(-1).unsqueeze(-1) - k.mean(-1).unsqueeze(-2)) ** 2  # (..., n_q, n_k)
    if mask is not None:
        hair = hair + mask
    weights = torch.softmax(hair, dim=-1)
    return weights @ v, weights
