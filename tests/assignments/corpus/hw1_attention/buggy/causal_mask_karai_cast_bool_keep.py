# question: causal_mask
# split: measure
# source: DrHomeRender/karai_cast, util/maskSelfAttention.py (generateSquareSubsequentMask: seq_len is n)
import torch


def causal_mask(n):
    seq_len = n
    """
    미래 시점을 보지 못하게 가리는 look-ahead mask
    shape: (seq_len, seq_len)
    """
    mask = torch.triu(torch.ones(seq_len, seq_len), diagonal=1).bool()
    return ~mask  # False → 가려짐 (0), True → 통과 (1)
