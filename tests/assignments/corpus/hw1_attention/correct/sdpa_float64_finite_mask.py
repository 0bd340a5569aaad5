# scaled_dot_product_attention computed in float64 (and returned so), the mask's -inf
# made a large finite negative (-1e9) before it is added: the same weights
import math

import torch


def scaled_dot_product_attention(q, k, v, mask=None):
    q, k, v = q.double(), k.double(), v.double()
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])  # (..., n_q, n_k)
    if mask is not None:
        scores = scores + torch.clamp(mask.double(), min=-1e9)
    weights = torch.softmax(scores, dim=-1)
    return weights @ v, weights  # (..., n_q, d_v), (..., n_q, n_k)
