"""Reference solution of hw5_eeg_bert (NumPy only): BERT's recipe on a signal."""
from __future__ import annotations

import math
import numbers

import numpy as np


def patchify(signal, patch_len):
    """(C, N) signal -> (N // patch_len, C * patch_len) patches, channels concatenated."""
    signal = np.asarray(signal, dtype=np.float64)
    if isinstance(patch_len, bool) or not isinstance(patch_len, numbers.Integral) or patch_len < 1:
        raise ValueError(f"patch_len must be an int >= 1, got {patch_len!r}")
    C, N = signal.shape
    if N % patch_len:
        raise ValueError(f"patch_len={patch_len} does not divide the {N} samples")
    P = N // patch_len
    patches = signal.reshape(C, P, patch_len)  # (C, P, L): patch p of channel c
    return patches.transpose(1, 0, 2).reshape(P, C * patch_len)  # (P, C*L), channel-major rows


def layer_norm(x, eps=1e-5):
    """Each row over the last axis to mean 0 and variance 1 (no scale or shift)."""
    x = np.asarray(x, dtype=np.float64)
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)  # population variance (ddof=0)
    return (x - mean) / np.sqrt(var + eps)


def mask_patches(z, positions, mask_vector):
    """A copy of z (T, d) with the rows at `positions` replaced by mask_vector (d,)."""
    out = np.array(z, copy=True)
    out[np.asarray(positions, dtype=np.int64)] = mask_vector
    return out


def _softmax(scores):
    scores = scores - scores.max(axis=-1, keepdims=True)  # stable: the largest entry is 0
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)


def bidirectional_self_attention(x, Wq, Wk, Wv, Wo, heads):
    """Multi-head self-attention with no mask; returns (out (T, d), weights (heads, T, T))."""
    x = np.asarray(x, dtype=np.float64)
    T, d = x.shape
    d_k = d // heads
    split = lambda m: m.reshape(T, heads, d_k).transpose(1, 0, 2)  # (heads, T, d_k)
    q, k, v = split(x @ Wq), split(x @ Wk), split(x @ Wv)
    weights = _softmax(q @ k.transpose(0, 2, 1) / math.sqrt(d_k))  # (heads, T, T)
    concat = (weights @ v).transpose(1, 0, 2).reshape(T, d)  # heads side by side
    return concat @ Wo, weights


def masked_reconstruction_loss(recon, target, masked):
    """Mean over the masked rows of each row's mean squared error."""
    rows = np.asarray(list(masked), dtype=np.int64)
    if rows.size == 0:
        raise ValueError("no masked rows: the loss is undefined")
    diff = np.asarray(recon, dtype=np.float64)[rows] - np.asarray(target, dtype=np.float64)[rows]
    return float(np.mean(np.mean(diff ** 2, axis=-1)))


def cls_probability(h_cls, w, b):
    """sigmoid(h_cls . w + b), computed without overflow."""
    z = float(np.dot(np.asarray(h_cls, dtype=np.float64), np.asarray(w, dtype=np.float64)) + b)
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)  # z < 0: e is in (0, 1), no overflow
    return e / (1.0 + e)
