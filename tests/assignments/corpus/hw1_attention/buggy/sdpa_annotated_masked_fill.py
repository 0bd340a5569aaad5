# question: scaled_dot_product_attention
# fails: test_values_with_masks, test_seed_table_causal
# public: must get weight 0
# makes: sdpa_mask_read_as_keep
# the additive mask read as a keep-mask (masked_fill(mask == 0, ...)): labelled ()
# until sdpa_mask_read_as_keep was declared, which was written knowing these five
# measured variants were its misses (the closing note counts them apart)
# split: measure
# source: harvardnlp/annotated-transformer, the_annotated_transformer.py (attention; dropout left out)
import math

import torch


def scaled_dot_product_attention(q, k, v, mask=None):
    d_k = q.size(-1)
    scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(d_k)
    if mask is not None:
        scores = scores.masked_fill(mask == 0, -1e9)
    p_attn = scores.softmax(dim=-1)
    return torch.matmul(p_attn, v), p_attn
