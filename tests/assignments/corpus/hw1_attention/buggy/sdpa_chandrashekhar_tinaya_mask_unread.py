# question: scaled_dot_product_attention
# fails: test_values_with_masks, test_keyword_mask, test_seed_table_causal
# public: must get weight 0
# makes: -
# batch G3 (labelled before grading)
# the mask is never read (no diagnosis)
# split: measure
# source: CHANDRASHEKHAR234/NLP, NLP/tinaya.py (attention(q, k, v); the stub's mask is taken and
# source: never read, as attention has none)
import torch.nn.functional as f


def attention(q,k,v):
    d = q.size(-1)
    scores = q @ k.transpose(-2,-1) / d**0.5
    attn = f.softmax(scores,dim=-1)
    return attn @ v, attn


def scaled_dot_product_attention(q, k, v, mask=None):
    return attention(q, k, v)
