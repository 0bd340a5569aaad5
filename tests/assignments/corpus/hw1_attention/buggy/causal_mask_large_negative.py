# question: causal_mask
# fails: test_masked_value_is_minus_inf
# public: use -inf
# diagnosis: mask_large_negative
import torch


def causal_mask(n):
    if not isinstance(n, int) or n < 1:
        raise ValueError(n)
    return torch.triu(torch.full((n, n), -1e9), diagonal=1)
