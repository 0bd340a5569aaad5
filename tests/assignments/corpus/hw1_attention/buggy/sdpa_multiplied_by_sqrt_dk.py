# question: scaled_dot_product_attention
# fails: test_values_without_mask, test_seed_tables, test_seed_table_causal
# public: -
# diagnosis: sdpa_scaled_otherwise
# the scores multiplied by sqrt(d_k) where they are divided by it
import math

import torch


def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ k.transpose(-2, -1) * math.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores + mask
    weights = torch.softmax(scores, dim=-1)
    return weights @ v, weights
