# question: key_padding_mask
# fails: test_values, test_accepts_integer_array, test_rejects_invalid_lengths
# makes: -
# batch G1 (labelled before grading)
# float64 1.0 at real tokens, 0.0 at padding: a multiplicative mask, not a boolean one; no
# ValueError (no diagnosis)
# split: measure
# source: espnet/espnet, egs3/ami/diar1/local/utils.py (len2mask: n_src is its max_len and dtype the
# source: float64 the question asks for, the lengths made a tensor, the answer a numpy array)
import numpy as np
import torch


def len2mask(length, max_len=None, dtype=None):

    if max_len is None:
        max_len = length.max().long().item()  # using arange to generate mask
    mask = torch.arange(max_len, device=length.device, dtype=length.dtype).expand(
        len(length), max_len) < length.unsqueeze(1)

    if dtype is None:
        dtype = length.dtype

    mask = torch.as_tensor(mask, dtype=dtype, device=length.device)
    return mask


def key_padding_mask(lengths, n_src):
    return len2mask(torch.as_tensor(np.asarray(lengths)), max_len=n_src, dtype=torch.float64).numpy()
