# sinusoidal_pe computed with torch in float64, stacked and reshaped, returned as numpy
import operator

import torch


def sinusoidal_pe(n_pos, d):
    try:
        n_pos, d = operator.index(n_pos), operator.index(d)
    except TypeError:
        raise ValueError("n_pos and d must be integers") from None
    if d <= 0 or d % 2 != 0 or n_pos < 0:
        raise ValueError("need an even d > 0 and n_pos >= 0")
    pos = torch.arange(n_pos, dtype=torch.float64).unsqueeze(1)  # (n_pos, 1)
    two_i = torch.arange(0, d, 2, dtype=torch.float64)  # (d/2,)
    angle = pos / torch.pow(torch.tensor(10000.0, dtype=torch.float64), two_i / d)
    pe = torch.stack([angle.sin(), angle.cos()], dim=-1)  # (n_pos, d/2, 2)
    return pe.reshape(n_pos, d).numpy()
