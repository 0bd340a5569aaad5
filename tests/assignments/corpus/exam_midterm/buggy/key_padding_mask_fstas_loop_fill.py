# question: key_padding_mask
# fails: test_type_shape_dtype, test_values, test_accepts_integer_array, test_rejects_invalid_lengths
# makes: mask_boolean
# batch G1 (labelled before grading)
# True at padding; also no ValueError (a length of 0 masks the whole row)
# split: measure
# source: wuyefa/FSTAS_DM, svtas/model/utils/transducer/mask.py (_get_pad_mask: its inputs tensor is a
# source: (len(lengths), n_src, 1) stand-in that gives the mask's shape, the lengths made a tensor, the
# source: answer a numpy array)
import numpy as np
import torch
from torch import Tensor


def _get_pad_mask(inputs: Tensor, inputs_lens: Tensor):
    assert len(inputs.size()) == 3

    batch = inputs.size(0)

    pad_attn_mask = inputs.new_zeros(inputs.size()[: -1])

    for idx in range(batch):
        pad_attn_mask[idx, inputs_lens[idx]:] = 1

    return pad_attn_mask.bool()


def key_padding_mask(lengths, n_src):
    inputs_lens = torch.as_tensor(np.asarray(lengths))
    inputs = torch.zeros(len(inputs_lens), n_src, 1)
    return _get_pad_mask(inputs, inputs_lens).numpy()
