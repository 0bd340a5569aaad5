# question: scaled_dot_product_attention
# fails: test_values_with_masks, test_seed_table_causal
# public: masked with -inf must get weight 0
# diagnosis: sdpa_mask_multiplied
import math
import torch


def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores * torch.where(torch.isinf(mask), 0.0, 1.0)
    w = torch.softmax(scores, dim=-1)
    return w @ v, w
