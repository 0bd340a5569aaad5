# question: causal_mask
# fails: test_values
# public: the diagonal must be 0.0
# diagnosis: mask_hides_diagonal
import torch


def causal_mask(n):
    if not isinstance(n, int) or n < 1:
        raise ValueError(n)
    return torch.triu(torch.full((n, n), float("-inf")), diagonal=0)
