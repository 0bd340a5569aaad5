# question: scaled_dot_product_attention
# fails: test_shapes, test_values_without_mask, test_values_with_masks, test_keyword_mask, test_seed_table_causal
# public: IndexError: Dimension out of range
# makes: sdpa_mask_read_as_keep
# batch F (labelled before grading)
# masked_fill(mask == 0, 1e-15): the allowed keys get a score of ~0, the hidden ones keep
# theirs; also torch.bmm, so 3-D inputs only (no diagnosis)
# split: measure
# source: PSRahul/Transformer_Learner, util.py (scaled_dot_product; query, key, value are q, k, v)
import torch
import math
import torch.nn.functional as F


def scaled_dot_product(query, key, value, mask=None):
    d_k = query.size()[-1]
    attention_logits = torch.bmm(query, key.transpose(1, 2))
    attention_logits = attention_logits/math.sqrt(d_k)
    if mask is not None:
        attention_logits.masked_fill_(mask == 0, 1e-15)

    attention = F.softmax(attention_logits, dim=2)
    value = torch.bmm(attention, value)
    return value, attention


def scaled_dot_product_attention(q, k, v, mask=None):
    return scaled_dot_product(q, k, v, mask)
