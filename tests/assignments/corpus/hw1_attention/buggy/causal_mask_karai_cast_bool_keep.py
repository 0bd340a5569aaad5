# question: causal_mask
# fails: test_type_shape_dtype, test_values, test_masked_value_is_minus_inf, test_rejects_invalid_n
# public: dtype torch.bool
# public: diagonal must be 0.0
# public: should raise ValueError
# makes: mask_unchecked
# batch blind-H2 (labelled before grading)
# True where allowed: not mask_boolean's "True where hidden"
# split: measure
# source: DrHomeRender/karai_cast, util/maskSelfAttention.py (generateSquareSubsequentMask: seq_len is n)
import torch


def causal_mask(n):
    seq_len = n
    """
    미래 시점을 보지 못하게 가리는 look-ahead mask
    shape: (seq_len, seq_len)
    """
    mask = torch.triu(torch.ones(seq_len, seq_len), diagonal=1).bool()
    return ~mask  # False → 가려짐 (0), True → 통과 (1)
