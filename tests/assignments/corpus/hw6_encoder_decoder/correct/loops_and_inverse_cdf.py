# Loops, Python's max for the argmax, inverse-CDF sampling with rng.random().
import math

import numpy as np


def xavier_uniform(fan_in, fan_out, rng):
    a = math.sqrt(6 / (fan_in + fan_out))
    return np.stack([rng.uniform(-a, a, size=fan_out) for _ in range(fan_in)])  # row by row


def teacher_forcing(continuation, sos_id, eos_id):
    decoder_input, labels = [sos_id], []
    for token in continuation:
        decoder_input.append(token)
        labels.append(token)
    labels.append(eos_id)
    return decoder_input, labels


def cross_attention(y, h, Wq, Wk, Wv, Wo, heads):
    d = y.shape[1]
    dk = d // heads
    Q, K, V = y @ Wq, h @ Wk, h @ Wv
    outs, weights = [], []
    for i in range(heads):
        c = slice(i * dk, (i + 1) * dk)
        s = np.einsum("td,sd->ts", Q[:, c], K[:, c]) / math.sqrt(dk)
        e = np.exp(s - s.max(axis=1, keepdims=True))
        a = e / e.sum(axis=1, keepdims=True)
        weights.append(a)
        outs.append(a @ V[:, c])
    return np.hstack(outs) @ Wo, np.array(weights)


def greedy_decode(step, sos_id, eos_id, max_len):
    ids = [sos_id]
    for _ in range(max_len):
        logits = list(step(ids))
        best = max(range(len(logits)), key=lambda v: logits[v])  # first maximum: lowest id
        ids.append(best)
        if best == eos_id:
            break
    return ids


def sample_next(logits, temperature, rng, top_k=None):
    if temperature <= 0:
        raise ValueError("temperature must be positive")
    if top_k is not None and top_k < 1:
        raise ValueError("top_k must be >= 1")
    z = np.array(logits, dtype=float) / temperature
    order = np.argsort(-z)
    keep = order if top_k is None else order[:top_k]
    w = np.exp(z[keep] - z[keep].max())
    cdf = np.cumsum(w / w.sum())
    j = int(np.searchsorted(cdf, rng.random() * cdf[-1], side="right"))
    return int(keep[min(j, len(keep) - 1)])


def sequence_cross_entropy(logits, labels):
    total = 0.0
    for row, label in zip(np.asarray(logits, dtype=float), labels):
        m = row.max()
        total += m + math.log(np.sum(np.exp(row - m))) - row[int(label)]
    return total / len(labels)
