# question: scaled_dot_product_attention
# fails: test_values_with_masks, test_keyword_mask, test_large_scores_stay_finite_with_mask, test_seed_table_causal
# public: must get weight 0
# makes: sdpa_mask_read_as_keep
# the additive mask read as a keep-mask (masked_fill(mask == 0, ...)): labelled ()
# until sdpa_mask_read_as_keep was declared, which was written knowing these five
# measured variants were its misses (the closing note counts them apart)
# split: measure
# source: Fabbboy/setis, src/transformer/layer/sdpa.py (ScaledDotProductAttention.forward)
import torch


def scaled_dot_product_attention(q, k, v, mask=None):
    d_k = q.size(-1)
    scores = torch.matmul(q, k.transpose(-2, -1)) / torch.sqrt(
        torch.tensor(d_k, dtype=torch.float32)
    )
    if mask is not None:
        scores = scores.masked_fill(mask == 0, float("-inf"))
    score = torch.softmax(scores, dim=-1)
    output = torch.matmul(score, v)
    return output, score
