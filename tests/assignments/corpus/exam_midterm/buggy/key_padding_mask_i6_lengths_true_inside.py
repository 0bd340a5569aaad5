# question: key_padding_mask
# fails: test_type_shape_dtype, test_values, test_accepts_integer_array, test_rejects_invalid_lengths
# makes: -
# batch G1 (labelled before grading)
# True at real tokens, as wide as the longest length: not mask_boolean's "True at padding"
# split: measure
# source: rwth-i6/i6_experiments, users/berger/pytorch/models/util.py (lengths_to_padding_mask: the
# source: lengths made a tensor, the answer a numpy array; it takes no n_src)
import numpy as np
import torch


def lengths_to_padding_mask(lengths: torch.Tensor) -> torch.Tensor:
    """
    Convert lengths to a pytorch MHSA compatible key mask

    :param lengths: [B]
    :return: B x T, where 1 means within sequence and 0 means outside sequence
    """
    batch_size = lengths.shape[0]
    max_length = torch.max(lengths)
    sequence_mask = torch.arange(max_length, device=lengths.device, dtype=lengths.dtype).expand(
        batch_size, max_length
    ) < lengths.unsqueeze(1)
    return sequence_mask


def key_padding_mask(lengths, n_src):
    return lengths_to_padding_mask(torch.as_tensor(np.asarray(lengths))).numpy()
