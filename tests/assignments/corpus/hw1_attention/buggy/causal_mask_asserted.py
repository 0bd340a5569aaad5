# question: causal_mask
# fails: test_rejects_invalid_n
# public: AssertionError
# diagnosis: mask_asserted
import torch


def causal_mask(n):
    """Causal mask whose argument is checked with assert."""
    assert isinstance(n, int) and not isinstance(n, bool) and n >= 1, f"n must be an int >= 1, got {n!r}"
    return torch.triu(torch.full((n, n), float("-inf")), diagonal=1)
