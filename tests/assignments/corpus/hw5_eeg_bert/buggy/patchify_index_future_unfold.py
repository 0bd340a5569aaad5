# question: patchify
# fails: test_shape_dtype, test_rows_concatenate_channels, test_rejects_invalid_patch_len
# public: channel 0's samples of patch p, then channel 1's
# public: should raise ValueError
# makes: patchify_truncates, patchify_asserted, patchify_sample_major, patchify_keeps_dtype
# batch G2 (labelled before grading)
# non-int or < 1 patch_len refused with ValueError, but one longer than N with assert and
# one not dividing N accepted (the trailing samples dropped); rows sample by sample
# split: measure
# source: FerdinandEoverm/Index_Future_Prediction, modules/patch.py (TimeSeriesPatcher with stride =
# source: patch_size = patch_len, in NumPy: the signal transposed to its (seq_len, feature) layout,
# source: torch's unfold a strided sliding_window_view, its (num_patch, patch_size, feature) result
# source: flattened to the stub's rows)
import numpy as np


def patchify(signal, patch_len):
    patch_size = stride = patch_len
    if not isinstance(patch_size, int) or patch_size <= 0:
        raise ValueError("patch_size must be a positive integer")
    if not isinstance(stride, int) or stride <= 0:
        raise ValueError("step must be a positive integer")

    x = np.asarray(signal).T
    seq_len = x.shape[-2]
    assert seq_len >= patch_size, 'patch_size longer than the sequence'
    patches = np.lib.stride_tricks.sliding_window_view(x, patch_size, axis=-2)[::stride]
    patches = patches.swapaxes(-1, -2)
    return patches.reshape(patches.shape[0], -1)
