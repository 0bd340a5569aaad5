# question: causal_mask
# fails: test_rejects_invalid_n
# public: should raise ValueError
# makes: mask_unchecked
# split: measure
# source: Zenasj/HBTGen-artifact, data/pytorch-issue/issue_29546.py (torch's old generate_square_subsequent_mask)
import torch


def causal_mask(n):
    mask = (torch.triu(torch.ones(n, n)) == 1).transpose(0, 1)
    mask = mask.float().masked_fill(mask == 0, float('-inf')).masked_fill(mask == 1, float(0.0))
    return mask
