# question: key_padding_mask
# fails: test_type_shape_dtype, test_values, test_accepts_integer_array, test_rejects_invalid_lengths
# public: the mask has dtype bool
# makes: -
# batch blind-H3 (labelled before grading)
# mask.type(dtype)'s result discarded: boolean True at real tokens, not mask_boolean's
# "True at padding"; no ValueError
# split: measure
# source: mlciv/sgd, utils/torch_ext.py (sequence_mask with maxlen = n_src on the CPU, asked for
# source: torch.float64 as its dtype; the lengths made a tensor, the answer a numpy array)
import torch


def sequence_mask(lengths, maxlen, device, dtype=torch.bool):
    if maxlen is None:
        maxlen = lengths.max()
    row_vector = torch.arange(0, maxlen, 1, device=device)
    matrix = torch.unsqueeze(lengths, dim=-1)
    mask = row_vector < matrix
    mask.type(dtype)
    return mask


def key_padding_mask(lengths, n_src):
    lengths = torch.as_tensor(lengths)
    return sequence_mask(lengths, n_src, "cpu", dtype=torch.float64).numpy()
