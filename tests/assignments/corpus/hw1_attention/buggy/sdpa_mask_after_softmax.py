# question: scaled_dot_product_attention
# fails: test_values_with_masks, test_seed_table_causal
# public: sum to 1: add the mask to the scores before the softmax
# diagnosis: sdpa_mask_after_softmax
import math
import torch


def scaled_dot_product_attention(q, k, v, mask=None):
    w = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1]), dim=-1)
    if mask is not None:
        w = w.masked_fill(torch.isinf(mask), 0.0)
    return w @ v, w
