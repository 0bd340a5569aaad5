# question: causal_mask
# fails: test_rejects_invalid_n
# public: should raise ValueError
# makes: mask_unchecked
# batch blind-H2 (labelled before grading)
# split: measure
# source: DeepVAC/transformer, modules/utils.py (generate_square_subsequent_mask: sz is n)
import torch


def generate_square_subsequent_mask(sz):
    return torch.triu(torch.full((sz, sz), float('-inf')), diagonal=1)


def causal_mask(n):
    return generate_square_subsequent_mask(n)
