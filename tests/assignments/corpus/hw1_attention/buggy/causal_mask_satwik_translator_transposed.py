# question: causal_mask
# fails: test_rejects_invalid_n
# public: should raise ValueError
# makes: mask_unchecked
# batch G3 (labelled before grading)
# split: measure
# source: satwik-kambham/machine-translation, translator/utils.py (generate_square_subsequent_mask)
import torch


def causal_mask(n):
    sz = n
    mask = (torch.triu(torch.ones((sz, sz))) == 1).transpose(0, 1)
    mask = (
        mask.float()
        .masked_fill(mask == 0, float("-inf"))
        .masked_fill(mask == 1, float(0.0))
    )
    return mask
