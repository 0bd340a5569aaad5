# question: patchify
# fails: test_shape_dtype
# public: -
# diagnosis: patchify_keeps_dtype
import numpy as np
def patchify(signal, patch_len):
    signal = np.asarray(signal)
    C, N = signal.shape
    if not isinstance(patch_len, int) or patch_len < 1 or N % patch_len:
        raise ValueError("bad patch_len")
    return signal.reshape(C, N // patch_len, patch_len).transpose(1, 0, 2).reshape(N // patch_len, -1)
