# question: causal_mask
# fails: test_rejects_invalid_n
# public: should raise ValueError
# makes: mask_unchecked
# source: neet/attentif, src/mask_causal.py (make_causal_mask, called with float32 on the CPU)
import torch


def make_causal_mask(seq_len, dtype, device):
    rows = torch.arange(seq_len)
    cols = torch.arange(seq_len)
    grid_x, grid_y = torch.meshgrid(rows, cols, indexing="ij")
    zero = torch.tensor(0.0, dtype=dtype, device=device)
    neginf = torch.tensor(float("-inf"), dtype=dtype, device=device)
    return torch.where(grid_x >= grid_y, zero, neginf)


def causal_mask(n):
    return make_causal_mask(n, torch.float32, torch.device("cpu"))
