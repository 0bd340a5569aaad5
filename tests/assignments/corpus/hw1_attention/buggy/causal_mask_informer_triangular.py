# question: causal_mask
# fails: test_type_shape_dtype, test_masked_value_is_minus_inf, test_rejects_invalid_n
# public: dtype torch.bool
# public: must not see key 1: use -inf
# public: should raise ValueError
# makes: mask_boolean, mask_unchecked
# split: measure
# source: zhouhaoyi/Informer2020, utils/masking.py (TriangularCausalMask with B = 1, its (1, 1, n, n)
# source: mask read as (n, n))
import torch


class TriangularCausalMask():
    def __init__(self, B, L, device="cpu"):
        mask_shape = [B, 1, L, L]
        with torch.no_grad():
            self._mask = torch.triu(torch.ones(mask_shape, dtype=torch.bool), diagonal=1).to(device)

    @property
    def mask(self):
        return self._mask


def causal_mask(n):
    return TriangularCausalMask(1, n).mask[0, 0]
