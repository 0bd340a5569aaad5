# question: patchify
# fails: test_shape_dtype, test_rows_concatenate_channels, test_rejects_invalid_patch_len
# public: should return a numpy array
# diagnosis: patchify_generator
# The rows built in a generator expression, and the generator returned instead of an
# array (np.array(...) forgotten around it).
import numpy as np


def patchify(signal, patch_len):
    signal = np.asarray(signal, dtype=np.float64)
    if not isinstance(patch_len, int) or patch_len < 1 or signal.shape[1] % patch_len:
        raise ValueError("patch_len must be an int >= 1 dividing N")
    L = patch_len
    return (signal[:, p * L:(p + 1) * L].reshape(-1) for p in range(signal.shape[1] // L))
