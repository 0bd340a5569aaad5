# question: scaled_dot_product_attention
# fails: test_large_scores_stay_finite, test_large_scores_stay_finite_with_mask
# public: -
# diagnosis: sdpa_naive_softmax
import math
import torch


def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores + mask
    e = torch.exp(scores)  # overflows for large scores
    w = e / e.sum(dim=-1, keepdim=True)
    return w @ v, w
