# question: causal_mask
# fails: test_type_shape_dtype, test_values, test_masked_value_is_minus_inf, test_rejects_invalid_n
# public: dtype torch.bool
# public: diagonal must be 0.0
# public: should raise ValueError
# makes: mask_unchecked
# True where allowed: not mask_boolean's "True where hidden"
# split: measure
# source: ChieBKAI/attention-paper-implementation-from-scratch, DataProcessing/causalMask.py (get_causal_mask)
import torch


def causal_mask(n):
    mask = torch.triu(torch.ones(n, n), diagonal=1).type(torch.int)
    return mask == 0
