# question: causal_mask
# fails: test_type_shape_dtype, test_values, test_masked_value_is_minus_inf, test_large_n, test_rejects_invalid_n
# public: not (3, 3)
# public: (2, 2) torch.Tensor
# public: should raise ValueError
# makes: mask_unchecked
# True where allowed: not mask_boolean's "True where hidden"
# source: harvardnlp/annotated-transformer, the_annotated_transformer.py (subsequent_mask)
import torch


def causal_mask(n):
    attn_shape = (1, n, n)
    subsequent_mask = torch.triu(torch.ones(attn_shape), diagonal=1).type(torch.uint8)
    return subsequent_mask == 0
