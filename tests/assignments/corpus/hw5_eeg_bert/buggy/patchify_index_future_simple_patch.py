# question: patchify
# fails: test_shape_dtype, test_rows_concatenate_channels, test_rejects_invalid_patch_len
# public: channel 0's samples of patch p, then channel 1's
# public: should raise ValueError
# makes: patchify_truncates, patchify_sample_major, patchify_keeps_dtype
# batch G2 (labelled before grading)
# the leading N % patch_len samples dropped, rows flattened sample by sample
# split: measure
# source: FerdinandEoverm/Index_Future_Prediction, modules/patch.py (SimplePatch.forward in NumPy: the
# source: signal transposed to its (seq_len, feature) layout, its (max_patch, patch_size, feature)
# source: result flattened to the stub's rows; torch's clone is np.copy)
import numpy as np


def patchify(signal, patch_len):
    x = np.asarray(signal).T
    patch_size = patch_len

    front_size = tuple(x.shape[:-2])
    seq_len = x.shape[-2]
    feature_size = x.shape[-1]
    x_rebatch = x.reshape(-1, seq_len, feature_size)

    # drop the leading part that does not fill a whole patch
    max_patch = seq_len // patch_size
    vaild_seq_len = patch_size * max_patch
    x_valid = np.copy(x_rebatch[:, -vaild_seq_len:, :])
    x_recover = x_valid.reshape(*front_size, max_patch, patch_size, feature_size)

    return x_recover.reshape(max_patch, patch_size * feature_size)
