import torch


def causal_mask(n):
    if not isinstance(n, int) or n <= 0:
        raise ValueError(f"bad n: {n}")
    blocked = torch.ones(n, n, dtype=torch.bool).triu(1)
    return torch.zeros(n, n, dtype=torch.float32).masked_fill(blocked, -torch.inf)
