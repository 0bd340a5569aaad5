# question: causal_mask
# fails: test_masked_value_is_minus_inf, test_rejects_invalid_n
# public: must not see key 1: use -inf
# public: should raise ValueError
# makes: mask_large_negative, mask_unchecked
# -1e9 above the diagonal, nothing checked
# source: gaminghusky1/AIProjects, base_model/masks.py (causal: NumPy's triu and ones written as
# source: torch's, the -1e9 kept)
import torch


def causal_mask(n):
    return torch.triu(torch.ones((n, n)), diagonal=1) * -1e9
