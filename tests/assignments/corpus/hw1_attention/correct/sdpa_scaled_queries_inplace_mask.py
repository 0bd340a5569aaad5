# scaled_dot_product_attention scaling the queries first (d_k ** -0.5), adding the mask
# in place only when one is given, and the weights written as exp / sum after the max
import torch


def scaled_dot_product_attention(q, k, v, mask=None):
    scores = torch.matmul(q * q.shape[-1] ** -0.5, k.transpose(-1, -2))
    if mask is not None:
        scores = scores.clone()
        scores.add_(mask)
    e = torch.exp(scores - scores.amax(dim=-1, keepdim=True))
    weights = e / e.sum(dim=-1, keepdim=True)
    return weights @ v, weights
