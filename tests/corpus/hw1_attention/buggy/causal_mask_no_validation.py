# question: causal_mask
import torch


def causal_mask(n):
    return torch.triu(torch.full((n, n), float("-inf")), diagonal=1)
