# question: sinusoidal_pe
# fails: test_values, test_large_positions
# public: -
# diagnosis: pe_float32_torch
# computed in torch's default float32, then converted: right dtype, lost precision
import math

import numpy as np
import torch


def sinusoidal_pe(n_pos, d):
    """Computed in torch's default float32, then converted to float64."""
    if not isinstance(d, int) or d <= 0 or d % 2:
        raise ValueError("d must be a positive even int")
    if not isinstance(n_pos, int) or n_pos < 0:
        raise ValueError("n_pos must be an int >= 0")
    pos = torch.arange(n_pos).float().unsqueeze(1)
    div = torch.exp(torch.arange(0, d, 2).float() * (-math.log(10000.0) / d))
    pe = torch.zeros(n_pos, d)
    pe[:, 0::2] = torch.sin(pos * div)
    pe[:, 1::2] = torch.cos(pos * div)
    return pe.numpy().astype(np.float64)
