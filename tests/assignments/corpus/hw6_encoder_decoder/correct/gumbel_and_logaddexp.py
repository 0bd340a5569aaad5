# rng.random scaled to [-a, a), Gumbel-max sampling, p ** (1/T), logaddexp, split heads.
import numpy as np


def xavier_uniform(fan_in, fan_out, rng):
    a = np.sqrt(6.0 / (fan_in + fan_out))
    return a * (2.0 * rng.random((fan_in, fan_out)) - 1.0)


def teacher_forcing(continuation, sos_id, eos_id):
    return [sos_id, *continuation], [*continuation, eos_id]


def cross_attention(y, h, Wq, Wk, Wv, Wo, heads):
    q = np.stack(np.split(y @ Wq, heads, axis=1))  # (heads, n_tgt, dk)
    k = np.stack(np.split(h @ Wk, heads, axis=1))  # (heads, n_src, dk)
    v = np.stack(np.split(h @ Wv, heads, axis=1))
    s = np.einsum("htd,hsd->hts", q, k) / np.sqrt(q.shape[-1])
    w = np.exp(s - np.logaddexp.reduce(s, axis=-1, keepdims=True))
    return np.concatenate(list(w @ v), axis=1) @ Wo, w


def greedy_decode(step, sos_id, eos_id, max_len):
    ids = [sos_id]
    while len(ids) <= max_len and (len(ids) == 1 or ids[-1] != eos_id):
        ids.append(int(np.argmax(step(ids))))
    return ids


def sample_next(logits, temperature, rng, top_k=None):
    if not temperature > 0 or (top_k is not None and top_k < 1):
        raise ValueError("invalid temperature or top_k")
    logits = np.asarray(logits, dtype=np.float64)
    if top_k is None and temperature >= 0.05:
        # softmax(l / T) is proportional to softmax(l) ** (1 / T)
        p = np.exp(logits - logits.max())
        p = p ** (1.0 / temperature)
        return int(rng.choice(len(p), p=p / p.sum()))
    z = logits / temperature
    if top_k is not None:
        z = np.where(z >= np.sort(z)[::-1][min(top_k, len(z)) - 1], z, -np.inf)
    return int(np.argmax(z + rng.gumbel(size=len(z))))  # the Gumbel-max trick


def sequence_cross_entropy(logits, labels):
    logits = np.asarray(logits, dtype=np.float64)
    log_probs = logits - np.logaddexp.reduce(logits, axis=1, keepdims=True)
    return float(-log_probs[np.arange(len(logits)), np.asarray(labels)].mean())
