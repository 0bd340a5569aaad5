# causal_mask from index comparisons, and a second way, negating a triangle of +inf
# (its zeros are -0.0, equal to 0.0): no table, any n
import torch


def causal_mask(n):
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError("n must be a positive int")
    i = torch.arange(n)
    where = torch.where(i[None, :] > i[:, None], float("-inf"), 0.0)
    negated = -torch.triu(torch.full((n, n), float("inf")), diagonal=1)
    assert torch.equal(where, negated)
    return negated if n % 2 else where
