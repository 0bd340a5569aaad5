import torch


def causal_mask(n):
    if type(n) is not int or n < 1:
        raise ValueError("n must be a positive int")
    m = torch.zeros(n, n)
    for i in range(n):
        for j in range(i + 1, n):
            m[i, j] = float("-inf")
    return m
