# question: key_padding_mask
# fails: test_type_shape_dtype, test_values, test_accepts_integer_array, test_rejects_invalid_lengths
# makes: -
# batch E
# True at real tokens: not mask_boolean's "True at padding"; no ValueError
# split: measure
# source: anhaidgroup/deepmatcher, deepmatcher/models/utils.py (sequence_mask, from onmt-py: n_src is its
# source: max_len, the lengths made a tensor, the answer a numpy array)
import torch


# From onmt-py
def sequence_mask(lengths, max_len=None):
    """
    Creates a boolean mask from sequence lengths.
    """
    batch_size = lengths.numel()
    max_len = max_len or lengths.max()
    return (torch.arange(0, max_len).type_as(lengths).repeat(batch_size, 1).lt(
        lengths.unsqueeze(1)))


def key_padding_mask(lengths, n_src):
    return sequence_mask(torch.as_tensor(lengths), n_src).numpy()
