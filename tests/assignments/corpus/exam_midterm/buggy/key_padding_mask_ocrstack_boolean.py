# question: key_padding_mask
# fails: test_type_shape_dtype, test_values, test_accepts_integer_array, test_rejects_invalid_lengths
# makes: mask_boolean
# batch E
# also as wide as the longest length, n_src unused, and no ValueError (no diagnosis)
# split: measure
# source: VinhLoiIT/ocrstack, ocrstack/models/utils.py (generate_padding_mask_from_lengths: the lengths
# source: made a tensor, the answer a numpy array; it takes no n_src)
import torch


def key_padding_mask(lengths, n_src):
    lengths = torch.as_tensor(lengths)
    B, S = len(lengths), lengths.max()
    padding_mask = torch.arange(0, S, device=lengths.device).expand(B, S) >= lengths.unsqueeze(-1)
    return padding_mask.numpy()
