# question: scaled_dot_product_attention
# fails: test_values_with_masks, test_seed_table_causal
# public: must get weight 0
# makes: sdpa_mask_read_as_keep
# the additive mask read as a keep-mask (masked_fill(mask == 0, ...)): labelled ()
# until sdpa_mask_read_as_keep was declared, which was written knowing these five
# measured variants were its misses (the closing note counts them apart)
# split: measure
# source: ashtonjur/MachineTranslator, ScaledDot.py (ScaledDotProductAttention.forward)
import math

import torch


def scaled_dot_product_attention(q, k, v, mask=None):
    scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.size(-1))
    if mask is not None:
        scores = scores.masked_fill(mask == 0, -1e9)
    attn_weights = torch.softmax(scores, dim=-1)
    output = torch.matmul(attn_weights, v)
    return output, attn_weights
