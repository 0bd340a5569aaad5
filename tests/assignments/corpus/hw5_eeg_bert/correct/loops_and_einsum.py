# Every stub written with explicit loops or einsum instead of reshapes.
import math

import numpy as np


def patchify(signal, patch_len):
    if not isinstance(patch_len, int) or isinstance(patch_len, bool) or patch_len < 1:
        raise ValueError("patch_len must be a positive int")
    C, N = np.shape(signal)
    if N % patch_len != 0:
        raise ValueError("patch_len must divide N")
    rows = []
    for p in range(N // patch_len):
        pieces = [np.asarray(signal[c], dtype=float)[p * patch_len:(p + 1) * patch_len] for c in range(C)]
        rows.append(np.concatenate(pieces))
    return np.array(rows, dtype=np.float64)


def layer_norm(x, eps=1e-5):
    x = np.asarray(x, dtype=float)
    d = x.shape[-1]
    mean = np.sum(x, axis=-1, keepdims=True) / d
    var = np.sum((x - mean) ** 2, axis=-1, keepdims=True) / d
    return (x - mean) / (var + eps) ** 0.5


def mask_patches(z, positions, mask_vector):
    out = np.empty_like(z)
    out[:] = z
    for p in positions:
        out[int(p), :] = mask_vector
    return out


def bidirectional_self_attention(x, Wq, Wk, Wv, Wo, heads):
    T, d = x.shape
    dk = d // heads
    Q, K, V = x @ Wq, x @ Wk, x @ Wv
    weights, outs = [], []
    for i in range(heads):
        cols = slice(i * dk, (i + 1) * dk)
        s = np.einsum("td,sd->ts", Q[:, cols], K[:, cols]) / math.sqrt(dk)
        s = np.exp(s - s.max(axis=1, keepdims=True))
        a = s / s.sum(axis=1, keepdims=True)
        weights.append(a)
        outs.append(a @ V[:, cols])
    return np.concatenate(outs, axis=1) @ Wo, np.stack(weights)


def masked_reconstruction_loss(recon, target, masked):
    masked = list(masked)
    if len(masked) == 0:
        raise ValueError("empty mask")
    total = 0.0
    for i in masked:
        total += np.mean((np.asarray(recon[i]) - np.asarray(target[i])) ** 2)
    return total / len(masked)


def cls_probability(h_cls, w, b):
    z = float(np.dot(h_cls, w) + b)
    return 0.5 * (1.0 + math.tanh(z / 2.0))  # the sigmoid, without any exp to overflow
