# question: patchify
# fails: test_rejects_invalid_patch_len
# public: AssertionError
# diagnosis: patchify_asserted
import numpy as np


def patchify(signal, patch_len):
    signal = np.asarray(signal, dtype=np.float64)
    C, N = signal.shape
    assert isinstance(patch_len, int) and patch_len >= 1, "patch_len must be a positive int"
    assert N % patch_len == 0, "patch_len must divide the number of samples"
    P = N // patch_len
    return signal.reshape(C, P, patch_len).transpose(1, 0, 2).reshape(P, C * patch_len)
