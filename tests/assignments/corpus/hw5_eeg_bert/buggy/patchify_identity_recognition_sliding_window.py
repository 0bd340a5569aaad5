# question: patchify
# fails: test_shape_dtype, test_rejects_invalid_patch_len
# public: should raise ValueError
# makes: patchify_truncates, patchify_keeps_dtype
# batch G4 (labelled before grading)
# (C, L) windows flattened channel by channel (right), but N // patch_len of them: a
# patch_len not dividing N drops samples, 0 a ZeroDivisionError; the dtype kept
# split: measure
# source: CUITCHENSIYU/identity_recognition, utils/sliding.py (sliding_window with win_size =
# source: step_size = patch_len; its list of (C, patch_len) patches made the array of flat rows
# source: the stub returns)
import numpy as np


def sliding_window(data, win_size, step_size):
    length = int((data.shape[-1]-win_size)/step_size+1)
    patchs = []
    for i in range(length):
        patch = data[:, i*step_size:i*step_size+win_size]
        patchs.append(patch)
    return patchs


def patchify(signal, patch_len):
    patchs = sliding_window(np.asarray(signal), patch_len, patch_len)
    return np.array(patchs).reshape(len(patchs), -1)
