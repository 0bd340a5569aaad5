# question: scaled_dot_product_attention
# fails: test_shapes, test_values_without_mask, test_large_scores_stay_finite, test_seed_tables
# public: without a mask it raised
# diagnosis: sdpa_needs_mask
# the mask is added without `if mask is not None` (the course's skeleton always passed
# one): exact with a mask, TypeError without
import math

import torch


def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1]) + mask
    weights = torch.softmax(scores, dim=-1)
    return weights @ v, weights
