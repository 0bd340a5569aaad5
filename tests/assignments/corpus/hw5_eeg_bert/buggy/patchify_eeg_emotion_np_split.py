# question: patchify
# fails: test_rejects_invalid_patch_len
# public: -
# makes: -
# batch blind-H3 (labelled before grading)
# N // patch_len np.split sections: a patch_len of 0 a ZeroDivisionError, a non-int one a
# TypeError (np.zeros of a float shape); other bad ones np.split's or numpy's ValueError
# split: measure
# source: KBhandari11/EEG_Emotion_Classification, abc.py (the script's np.split of each channel into
# source: its segments, on a batch of one, with N // patch_len segments instead of its fixed 4; the
# source: (P, C, 1, L) result of its transpose(2, 1, 0, 3) reshaped to the stub's (P, C*L))
import numpy as np


def patchify(signal, patch_len):
    data = np.asarray(signal)[np.newaxis]  # (1, C, N)
    n_batch, n_channels, n_samples = data.shape
    n_segments = n_samples // patch_len
    raw = np.zeros((n_batch, n_channels, n_segments, patch_len))
    for x in range(0, n_batch):
        for y in range(0, n_channels):
            raw[x, y, :, :] = np.array(np.split(data[x, y, :], n_segments))
    raw = raw.transpose(2, 1, 0, 3)
    return raw.reshape(n_segments, -1)
