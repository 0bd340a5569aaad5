# question: scaled_dot_product_attention
# fails: test_shapes, test_values_without_mask, test_values_with_masks, test_keyword_mask, test_large_scores_stay_finite, test_large_scores_stay_finite_with_mask, test_seed_tables, test_seed_table_causal
# public: must match the size of tensor b
# public: must get weight 0
# makes: sdpa_unscaled, sdpa_naive_softmax
# batch G3 (labelled before grading)
# q @ k.T unscaled, exp(s) / sum exp(s); the mask is never read and batched inputs fail
# (k.T reverses every axis) (no diagnosis for those)
# split: measure
# source: Geneww/llm_tools, self_attention.py (the script's soft_max and its three lines score =
# source: query @ key.T, soft_max(score), score @ value made a function of q, k, v, in torch; the
# source: stub's mask is taken and never read, as the script has none; returns (out, weights))
import torch


def soft_max(z):
    t = torch.exp(z)
    a = torch.exp(z) / torch.unsqueeze(torch.sum(t, dim=1), 1)
    return a


def scaled_dot_product_attention(q, k, v, mask=None):
    query, key, value = q, k, v

    score = query @ key.T

    score = soft_max(score)

    out = score @ value
    return out, score
