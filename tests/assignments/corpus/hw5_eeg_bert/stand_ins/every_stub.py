# A stand-in for every stub (tests/assignments/test_stand_ins.py): it must earn format tests only.
import numpy as np
def patchify(signal, patch_len):
    C, N = np.shape(signal)
    if not isinstance(patch_len, int) or patch_len < 1 or N % patch_len:
        raise ValueError("patch_len")
    return np.zeros((N // patch_len, C * patch_len))
def layer_norm(x, eps=1e-5):
    return np.zeros(np.shape(x))
def mask_patches(z, positions, mask_vector):
    return np.array(z, dtype=np.float64)
def bidirectional_self_attention(x, Wq, Wk, Wv, Wo, heads):
    T, d = np.shape(x)
    return np.zeros((T, d)), np.full((heads, T, T), 1.0 / T)
def masked_reconstruction_loss(recon, target, masked):
    if len(masked) == 0:
        raise ValueError("empty")
    return 0.0
def cls_probability(h_cls, w, b):
    return 0.5
