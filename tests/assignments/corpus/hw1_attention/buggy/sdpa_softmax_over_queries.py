# question: scaled_dot_product_attention
# fails: test_values_without_mask, test_values_with_masks, test_seed_tables, test_seed_table_causal
# public: over the keys) must sum to 1
# public: masked with -inf must get weight 0
# diagnosis: sdpa_over_queries
import math
import torch


def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores + mask
    w = torch.softmax(scores, dim=-2)
    return w @ v, w
