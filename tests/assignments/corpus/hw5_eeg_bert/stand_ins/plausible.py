# A stand-in for some stubs (tests/assignments/test_stand_ins.py): it must earn format tests only on them.
import numpy as np
def bidirectional_self_attention(x, Wq, Wk, Wv, Wo, heads):
    # every query gets the same weights, from the keys alone: no query is compared
    T, d = np.shape(x)
    k, v = (x @ Wk).reshape(T, heads, -1), (x @ Wv).reshape(T, heads, -1)
    s = np.broadcast_to(k.sum(-1).T[:, None, :], (heads, T, T))
    w = np.exp(s - s.max(-1, keepdims=True))
    w = w / w.sum(-1, keepdims=True)
    out = np.einsum("hqk,khd->qhd", w, v).reshape(T, d)
    return out @ Wo, w
def layer_norm(x, eps=1e-5):
    return x - np.mean(x, axis=-1, keepdims=True)  # centred, never scaled
def mask_patches(z, positions, mask_vector):
    return np.array(z, dtype=np.float64) + 1.0  # every row changed
def masked_reconstruction_loss(recon, target, masked):
    if len(masked) == 0:
        raise ValueError("empty")
    return float("nan")
