# question: key_padding_mask
# fails: test_type_shape_dtype, test_values, test_accepts_integer_array, test_rejects_invalid_lengths
# makes: mask_boolean, mask_python_int_only
# batch E
# a numpy integer n_src fails its assertion
# split: measure
# source: wenet-e2e/wenet, wenet/utils/mask.py (make_pad_mask: n_src is its max_len, the lengths made a
# source: tensor, the answer a numpy array)
import torch


def key_padding_mask(lengths, n_src):
    lengths = torch.as_tensor(lengths)
    max_len = n_src
    batch_size = lengths.size(0)
    if max_len is None:
        max_len = torch.max(lengths)
    else:
        if isinstance(max_len, int):
            max_len = torch.tensor(max_len,
                                   dtype=lengths.dtype,
                                   device=lengths.device)
        else:
            assert isinstance(max_len, torch.Tensor)

    seq_range = torch.arange(0,
                             max_len,
                             dtype=torch.int64,
                             device=lengths.device)
    seq_range_expand = seq_range.unsqueeze(0).expand(batch_size, max_len)
    seq_length_expand = lengths.unsqueeze(-1)
    mask = seq_range_expand >= seq_length_expand
    return mask.numpy()
