# Self-attention computed in float32: round-off only.
import numpy as np


def bidirectional_self_attention(x, Wq, Wk, Wv, Wo, heads):
    x = np.asarray(x, dtype=np.float32)
    T, d = x.shape
    dk = d // heads
    split = lambda m: m.reshape(T, heads, dk).transpose(1, 0, 2)
    q, k, v = (split(x @ np.float32(W)) for W in (Wq, Wk, Wv))
    s = q @ k.transpose(0, 2, 1) / np.float32(np.sqrt(dk))
    w = np.exp(s - s.max(-1, keepdims=True))
    w /= w.sum(-1, keepdims=True)
    return (w @ v).transpose(1, 0, 2).reshape(T, d) @ np.float32(Wo), w
