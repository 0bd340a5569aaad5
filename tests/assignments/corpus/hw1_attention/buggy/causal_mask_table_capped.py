# question: causal_mask
# fails: test_large_n
# public: -
# diagnosis: mask_from_table
# one 512 x 512 mask built once and sliced (a model's block_size buffer): right up
# to n = 512, too small beyond it
import torch

MAX_LEN = 512
_TABLE = torch.triu(torch.full((MAX_LEN, MAX_LEN), float("-inf")), diagonal=1)


def causal_mask(n):
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be an int >= 1, got {n!r}")
    return _TABLE[:n, :n].clone()
