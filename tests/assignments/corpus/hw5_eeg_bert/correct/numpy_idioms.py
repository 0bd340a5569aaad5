# hstack/split idioms, np.std, fancy-index loss, numpy's own overflow-to-inf sigmoid.
import numpy as np


def patchify(signal, patch_len):
    signal = np.asarray(signal, dtype=np.float64)
    if type(patch_len) is not int or patch_len <= 0 or signal.shape[1] % patch_len:
        raise ValueError("bad patch_len")
    chunks = np.split(signal, signal.shape[1] // patch_len, axis=1)  # each (C, L)
    return np.stack([c.reshape(-1) for c in chunks])


def layer_norm(x, eps=1e-5):
    x = np.asarray(x, dtype=np.float64)
    centred = x - x.mean(-1, keepdims=True)
    return centred / np.sqrt(np.mean(centred * centred, -1, keepdims=True) + eps)


def mask_patches(z, positions, mask_vector):
    out = z.copy()
    idx = np.asarray(positions, dtype=int)
    out[idx] = np.broadcast_to(mask_vector, (len(idx), z.shape[1]))
    return out


def bidirectional_self_attention(x, Wq, Wk, Wv, Wo, heads):
    T, d = x.shape
    dk = d // heads
    q = np.stack(np.split(x @ Wq, heads, axis=1))  # (heads, T, dk)
    k = np.stack(np.split(x @ Wk, heads, axis=1))
    v = np.stack(np.split(x @ Wv, heads, axis=1))
    s = np.einsum("hqd,hkd->hqk", q, k) / np.sqrt(dk)
    s -= np.max(s, axis=-1, keepdims=True)
    w = np.exp(s)
    w /= w.sum(-1, keepdims=True)
    out = np.concatenate(list(np.einsum("hqk,hkd->hqd", w, v)), axis=1)
    return out @ Wo, w


def masked_reconstruction_loss(recon, target, masked):
    idx = np.asarray(masked, dtype=int).reshape(-1)
    if idx.size == 0:
        raise ValueError("nothing masked")
    return float(((recon[idx] - target[idx]) ** 2).mean())  # rows of equal length


def cls_probability(h_cls, w, b):
    with np.errstate(over="ignore"):
        return 1.0 / (1.0 + np.exp(-(h_cls @ w + b)))  # exp overflows to inf -> 0.0
