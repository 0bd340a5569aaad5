import torch


def scaled_dot_product_attention(q, k, v, mask=None):
    d_k = q.shape[-1]
    scores = torch.matmul(q, k.transpose(-1, -2)) * d_k ** -0.5
    if mask is not None:
        scores = scores + mask
    shifted = scores - scores.max(dim=-1, keepdim=True).values  # stable exp
    e = torch.exp(shifted)
    weights = e / e.sum(dim=-1, keepdim=True)
    return weights @ v, weights
