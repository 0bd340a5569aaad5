# question: patchify
# fails: test_shape_dtype, test_rows_concatenate_channels, test_rejects_invalid_patch_len
# public: channel 0's samples of patch p, then channel 1's
# public: should raise ValueError
# makes: patchify_plain_reshape, patchify_truncates, patchify_keeps_dtype
# batch G4 (labelled before grading)
# the [C, P, L] channel tokens reshaped to (P, C*L): row by row; the samples past the last
# whole patch dropped (a warning printed), patch_len 0 a ZeroDivisionError; the dtype kept
# split: measure
# source: gedizxc/ZWU_TS, processing/patchify.py (patchify_ts in NumPy on a batch of one, stride =
# source: patch_len: the signal transposed to its [B, L, C] layout; its [C * num_patches, patch_len]
# source: tokens reshaped to the stub's (num_patches, C * patch_len) rows)
import numpy as np


def patchify_ts(x, patch_len, stride):
    """
    x: [B, L, C] -> tokens: [B, (num_patches*C), patch_len]
    """
    B, L, C = x.shape
    num_patches = (L - patch_len) // stride + 1
    if (L - patch_len) % stride != 0:
        print(f"[WARN] L={L}, patch_len={patch_len}, stride={stride} not aligned; last part truncated by formula.")
    patches = []
    for p in range(num_patches):
        start = p * stride
        patches.append(x[:, start:start + patch_len, :])  # [B, patch_len, C]
    patches = np.stack(patches, axis=0).transpose(1, 0, 2, 3)  # [B, num_patches, patch_len, C]
    patches = patches.transpose(0, 3, 1, 2)  # [B, C, num_patches, patch_len]
    tokens = patches.reshape(B, C * num_patches, patch_len)
    return tokens


def patchify(signal, patch_len):
    x = np.asarray(signal).T[np.newaxis]
    tokens = patchify_ts(x, patch_len, patch_len)
    num_patches = tokens.shape[1] // x.shape[2]
    return tokens[0].reshape(num_patches, -1)
