# question: patchify
# fails: test_rejects_invalid_patch_len
# public: should raise ValueError
# diagnosis: patchify_truncates
import numpy as np
def patchify(signal, patch_len):
    signal = np.asarray(signal, dtype=np.float64)
    C, N = signal.shape
    if not isinstance(patch_len, int) or patch_len < 1:
        raise ValueError("patch_len must be an int >= 1")
    P = N // patch_len  # a remainder is silently dropped
    return signal[:, :P * patch_len].reshape(C, P, patch_len).transpose(1, 0, 2).reshape(P, -1)
