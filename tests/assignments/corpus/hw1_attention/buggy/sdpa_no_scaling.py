# question: scaled_dot_product_attention
# fails: test_values_without_mask, test_seed_tables, test_seed_table_causal
# public: -
# diagnosis: sdpa_unscaled
import torch


def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ k.transpose(-2, -1)
    if mask is not None:
        scores = scores + mask
    w = torch.softmax(scores, dim=-1)
    return w @ v, w
