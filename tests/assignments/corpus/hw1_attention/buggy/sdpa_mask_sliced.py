# question: scaled_dot_product_attention
# fails: test_values_with_masks
# public: -
# diagnosis: sdpa_mask_sliced
# the mask cut to (n_q, n_k), as from a larger stored mask (mask[:T, :T]): right for
# masks of two or more dimensions, IndexError for a mask over the keys only (n_k,),
# which the contract's "broadcastable" allows
import math

import torch


def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores + mask[..., :q.shape[-2], :k.shape[-2]]
    weights = torch.softmax(scores, dim=-1)
    return weights @ v, weights
