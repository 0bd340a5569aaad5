"""Reference solution of hw6_encoder_decoder (NumPy only): the encoder-decoder as a prefix LM."""
from __future__ import annotations

import math

import numpy as np


def xavier_uniform(fan_in, fan_out, rng):
    """(fan_in, fan_out) weights from U(-a, a), a = sqrt(6 / (fan_in + fan_out))."""
    a = math.sqrt(6.0 / (fan_in + fan_out))
    return rng.uniform(-a, a, size=(fan_in, fan_out))


def teacher_forcing(continuation, sos_id, eos_id):
    """Shift right: the decoder reads [sos] + y and must predict y + [eos]."""
    continuation = list(continuation)
    return [sos_id] + continuation, continuation + [eos_id]


def _softmax(scores):
    scores = scores - scores.max(axis=-1, keepdims=True)  # stable: the largest entry is 0
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)


def cross_attention(y, h, Wq, Wk, Wv, Wo, heads):
    """Queries from the decoder states y (n_tgt, d), keys and values from the encoder output h (n_src, d)."""
    y, h = np.asarray(y, dtype=np.float64), np.asarray(h, dtype=np.float64)
    n_tgt, d = y.shape
    n_src = h.shape[0]
    d_k = d // heads
    q = (y @ Wq).reshape(n_tgt, heads, d_k).transpose(1, 0, 2)  # (heads, n_tgt, d_k)
    k = (h @ Wk).reshape(n_src, heads, d_k).transpose(1, 0, 2)  # (heads, n_src, d_k)
    v = (h @ Wv).reshape(n_src, heads, d_k).transpose(1, 0, 2)  # (heads, n_src, d_k)
    weights = _softmax(q @ k.transpose(0, 2, 1) / math.sqrt(d_k))  # (heads, n_tgt, n_src)
    concat = (weights @ v).transpose(1, 0, 2).reshape(n_tgt, d)  # heads side by side
    return concat @ Wo, weights


def greedy_decode(step, sos_id, eos_id, max_len):
    """Append argmax(step(ids)) until eos_id is appended or max_len ids follow sos_id."""
    ids = [sos_id]
    while len(ids) - 1 < max_len:
        next_id = int(np.argmax(step(list(ids))))  # np.argmax returns the lowest id on ties
        ids.append(next_id)
        if next_id == eos_id:
            break
    return ids


def sample_next(logits, temperature, rng, top_k=None):
    """One id drawn from softmax(logits / temperature), optionally restricted to the top_k logits."""
    if not temperature > 0:
        raise ValueError(f"temperature must be > 0, got {temperature!r}")
    if top_k is not None and top_k < 1:
        raise ValueError(f"top_k must be >= 1, got {top_k!r}")
    z = np.asarray(logits, dtype=np.float64) / temperature
    if top_k is not None and top_k < z.size:
        cutoff = np.sort(z)[-top_k]  # the k-th largest scaled logit
        z = np.where(z >= cutoff, z, -np.inf)
    p = _softmax(z)
    return int(rng.choice(z.size, p=p))


def sequence_cross_entropy(logits, labels):
    """Mean over positions of -log softmax(logits)[label], via log-sum-exp."""
    logits = np.asarray(logits, dtype=np.float64)
    labels = np.asarray(labels, dtype=np.int64)
    m = logits.max(axis=-1)  # (n,)
    log_z = m + np.log(np.exp(logits - m[:, None]).sum(axis=-1))  # (n,) log of the partition sum
    return float(np.mean(log_z - logits[np.arange(len(labels)), labels]))
