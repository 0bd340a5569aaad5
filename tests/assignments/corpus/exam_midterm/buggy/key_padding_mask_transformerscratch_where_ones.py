# question: key_padding_mask
# fails: test_values, test_rejects_invalid_lengths
# public: -
# makes: -
# batch blind-H3 (labelled before grading)
# 1.0 at real tokens, -inf at padding: neither boolean nor sliced from a table; no
# ValueError (no diagnosis)
# split: measure
# source: atikul-islam-sajib/TransformerScratch, src/mask.py (padding_mask on the batch's 0/1 mask,
# source: 1.0 for the first lengths[b] positions of each row; its (B, 1, 1, n_src) result read back
# source: as (B, n_src) and as a numpy array)
import torch


def padding_mask(mask: torch.Tensor):
    mask = torch.where(mask == 0.0, float("-inf"), mask)
    return mask.unsqueeze(1).unsqueeze(2)


def key_padding_mask(lengths, n_src):
    mask = torch.tensor([[1.0 if j < int(length) else 0.0 for j in range(int(n_src))]
                         for length in lengths], dtype=torch.float64)
    return padding_mask(mask=mask)[:, 0, 0, :].numpy()
