# question: key_padding_mask
# fails: test_type_shape_dtype, test_values, test_accepts_integer_array, test_rejects_invalid_lengths
# makes: mask_boolean
# batch G1 (labelled before grading)
# also no ValueError
# split: measure
# source: johanDDC/fastspeech2, src/model/utils/utils.py (get_mask_from_lengths: n_src is its max_len, the
# source: lengths made a tensor, the answer a numpy array)
import numpy as np
import torch


def get_mask_from_lengths(lengths, max_len=None):
    batch_size = lengths.shape[0]
    if max_len is None:
        max_len = torch.max(lengths).item()

    ids = torch.arange(0, max_len, device=lengths.device).unsqueeze(0).expand(batch_size, -1)
    mask = ids >= lengths.unsqueeze(1).expand(-1, max_len)

    return mask


def key_padding_mask(lengths, n_src):
    return get_mask_from_lengths(torch.as_tensor(np.asarray(lengths)), max_len=n_src).numpy()
