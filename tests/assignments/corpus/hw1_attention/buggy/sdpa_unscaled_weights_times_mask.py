# question: scaled_dot_product_attention
# fails: test_values_without_mask, test_seed_tables, test_seed_table_causal
# public: sum to 1: add the mask to the scores before the softmax
# diagnosis: sdpa_unscaled
# the tests without a mask fail
# Two classic mistakes at once (hw1's partial_mistakes demo): no 1/sqrt(d_k), and the
# mask multiplied into the weights after the softmax. With the unmasked values wrong, the
# mask tests check only that masked keys get no weight, which holds: the scaling's fail.
import torch


def scaled_dot_product_attention(q, k, v, mask=None):
    """Two classic mistakes: no 1/sqrt(d_k), and the mask multiplied in after the softmax."""
    weights = torch.softmax(q @ k.transpose(-2, -1), dim=-1)
    if mask is not None:
        weights = weights * (mask == 0)
    return weights @ v, weights
