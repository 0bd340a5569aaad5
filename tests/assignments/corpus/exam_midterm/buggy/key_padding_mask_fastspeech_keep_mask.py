# question: key_padding_mask
# fails: test_type_shape_dtype, test_values, test_accepts_integer_array, test_rejects_invalid_lengths
# makes: -
# batch E
# True at real tokens: not mask_boolean's "True at padding"; no ValueError
# source: Pe4enkazAMI/tts_project_1, hw_tts/model/FastSpeech2/model_utils.py (get_mask_from_lengths:
# source: n_src is its max_len, the lengths made a tensor, the answer a numpy array)
import torch


def key_padding_mask(lengths, n_src):
    lengths = torch.as_tensor(lengths)
    max_len = n_src
    if max_len == None:  # noqa: E711
        max_len = torch.max(lengths).item()

    ids = torch.arange(0, max_len, 1, device=lengths.device)
    mask = (ids < lengths.unsqueeze(1)).bool()

    return mask.numpy()
