# question: causal_mask
# fails: test_values
# public: pairs j < i must be 0.0
# diagnosis: mask_hides_past
import torch


def causal_mask(n):
    if not isinstance(n, int) or n < 1:
        raise ValueError(n)
    return torch.tril(torch.full((n, n), float("-inf")), diagonal=-1)
