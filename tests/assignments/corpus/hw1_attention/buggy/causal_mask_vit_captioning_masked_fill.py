# question: causal_mask
# fails: test_rejects_invalid_n
# public: should raise ValueError
# makes: mask_unchecked
# batch F (labelled before grading)
# source: Clementha/vit_captioning, utils.py (generate_square_subsequent_mask)
import torch


def causal_mask(n):
    mask = torch.triu(torch.ones(n, n), diagonal=1)
    mask = mask.masked_fill(mask == 1, float('-inf'))
    return mask
