# question: mask_patches
# split: measure
# source: lightly-ai/lightly, lightly/models/utils.py (mask_at_index and set_at_index in NumPy, on z as
# source: a batch of one: tokens.new_zeros is np.zeros_like, torch.scatter of 1 along the sequence
# source: axis the assignment at the index rows; the batch axis dropped from the result)
import numpy as np


def set_at_index(tokens, index, value):
    out = tokens.copy()
    for b in range(tokens.shape[0]):
        out[b, index[b]] = value
    return out


def mask_at_index(tokens, index, mask_token):
    mask = np.zeros_like(tokens)
    mask = set_at_index(mask, index, 1)
    return (1 - mask) * tokens + mask * mask_token


def mask_patches(z, positions, mask_vector):
    tokens = np.asarray(z)[np.newaxis]
    index = np.asarray(list(positions), dtype=np.int64)[np.newaxis]
    mask_token = np.asarray(mask_vector).reshape(1, 1, -1)
    return mask_at_index(tokens, index, mask_token)[0]
