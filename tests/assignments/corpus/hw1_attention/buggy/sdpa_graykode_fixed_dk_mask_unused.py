# question: scaled_dot_product_attention
# fails: test_values_without_mask, test_values_with_masks, test_keyword_mask, test_seed_tables, test_seed_table_causal
# public: must get weight 0, not 0.5
# makes: sdpa_scaled_otherwise
# divides by sqrt(64) whatever d_k; also never applies the mask (no diagnosis)
# split: measure
# source: graykode/nlp-tutorial, 5-2.BERT/BERT-Torch.py (ScaledDotProductAttention.forward as a
# source: function, its module's d_k = 64 kept; Q, K, V and attn_mask are q, k, v and mask)
import numpy as np
import torch
import torch.nn as nn

d_k = d_v = 64  # dimension of K(=Q), V


def scaled_dot_product_attention(q, k, v, mask=None):
    Q, K, V, attn_mask = q, k, v, mask
    scores = torch.matmul(Q, K.transpose(-1, -2)) / np.sqrt(d_k) # scores : [batch_size x n_heads x len_q(=len_k) x len_k(=len_q)]
    attn = nn.Softmax(dim=-1)(scores)
    context = torch.matmul(attn, V)
    return context, attn
