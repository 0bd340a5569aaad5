# question: key_padding_mask
# fails: test_type_shape_dtype, test_values, test_accepts_integer_array, test_rejects_invalid_lengths
# makes: mask_boolean
# batch G1 (labelled before grading)
# also as wide as the longest length, n_src unused, and no ValueError (no diagnosis)
# split: measure
# source: facebookresearch/fairseq, fairseq/data/data_utils.py (lengths_to_padding_mask: the lengths made a
# source: tensor, the answer a numpy array; it takes no n_src)
import numpy as np
import torch


# lens: torch.LongTensor
# returns: torch.BoolTensor
def lengths_to_padding_mask(lens):
    bsz, max_lens = lens.size(0), torch.max(lens).item()
    mask = torch.arange(max_lens).to(lens.device).view(1, max_lens)
    mask = mask.expand(bsz, -1) >= lens.view(bsz, 1).expand(-1, max_lens)
    return mask


def key_padding_mask(lengths, n_src):
    return lengths_to_padding_mask(torch.as_tensor(np.asarray(lengths))).numpy()
