# question: sinusoidal_pe
# fails: test_type_shape_dtype
# public: should return a numpy array
# public: numpy array, not Tensor
# diagnosis: pe_tensor
# returns a torch tensor (float64) instead of a numpy array
import torch
import numpy as np


def _check(n_pos, d):
    if not isinstance(d, int) or isinstance(d, bool) or d <= 0 or d % 2:
        raise ValueError("d must be a positive even int")
    if not isinstance(n_pos, int) or isinstance(n_pos, bool) or n_pos < 0:
        raise ValueError("n_pos must be an int >= 0")


def sinusoidal_pe(n_pos, d):
    _check(n_pos, d)
    pos = torch.arange(n_pos, dtype=torch.float64)[:, None]
    angle = pos / 10000 ** (torch.arange(0, d, 2, dtype=torch.float64) / d)
    return torch.stack([angle.sin(), angle.cos()], -1).reshape(n_pos, d)
