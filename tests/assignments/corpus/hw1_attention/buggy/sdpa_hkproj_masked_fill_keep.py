# question: scaled_dot_product_attention
# fails: test_values_with_masks, test_seed_table_causal
# public: must get weight 0
# makes: sdpa_mask_read_as_keep
# the additive mask read as a keep-mask, -1e9 where it is 0 (labelled () until
# sdpa_mask_read_as_keep was declared, as sdpa_annotated_masked_fill)
# split: measure
# source: hkproj/pytorch-transformer, model.py (MultiHeadAttentionBlock.attention; dropout None)
import math


def scaled_dot_product_attention(q, k, v, mask=None):
    d_k = q.shape[-1]
    scores = (q @ k.transpose(-2, -1)) / math.sqrt(d_k)
    if mask is not None:
        scores.masked_fill_(mask == 0, -1e9)
    scores = scores.softmax(dim=-1)
    return (scores @ v), scores
