# question: scaled_dot_product_attention
# fails: test_values_with_masks, test_keyword_mask, test_large_scores_stay_finite_with_mask, test_seed_table_causal
# public: must get weight 0
# diagnosis: sdpa_mask_read_as_keep
# The mask read as a keep-mask, the convention of some tutorials (1 where a key may be
# used, 0 where hidden), so that the additive mask's 0s are the ones filled.
import math

import torch


def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores.masked_fill(mask == 0, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return weights @ v, weights
