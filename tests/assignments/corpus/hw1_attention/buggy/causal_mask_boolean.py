# question: causal_mask
# fails: test_type_shape_dtype, test_masked_value_is_minus_inf
# public: not torch.float32
# public: use -inf
# diagnosis: mask_boolean
import torch


def causal_mask(n):
    if not isinstance(n, int) or n < 1:
        raise ValueError(n)
    return torch.ones(n, n, dtype=torch.bool).triu(1)
