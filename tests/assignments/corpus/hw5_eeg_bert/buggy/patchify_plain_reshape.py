# question: patchify
# fails: test_rows_concatenate_channels
# public: channel 0's samples of patch p, then channel 1's
# diagnosis: patchify_plain_reshape
import numpy as np
def patchify(signal, patch_len):
    signal = np.asarray(signal, dtype=np.float64)
    C, N = signal.shape
    if not isinstance(patch_len, int) or patch_len < 1 or N % patch_len:
        raise ValueError("bad patch_len")
    return signal.reshape(N // patch_len, C * patch_len)
