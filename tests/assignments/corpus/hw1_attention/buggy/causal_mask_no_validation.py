# question: causal_mask
# fails: test_rejects_invalid_n
# public: should raise ValueError
# diagnosis: mask_unchecked
import torch


def causal_mask(n):
    """Causal mask (forgets to reject bad n)."""
    return torch.triu(torch.full((n, n), float("-inf")), diagonal=1)
