# split: measure
# source: chkechad/transformers-lab, src/transformers_lab/multihead_attention.py,
# source: scaled_dot_product_attention.py and softmax.py (multi_head_attention with x = y and
# source: x_cross = h; the stub's (d, d) Wq, Wk, Wv cut into its per-head (n_heads, d_model, d_k)
# source: stacks of column blocks; each head's weights returned beside the output, as the stub does)
from typing import cast

import numpy as np


def softmax(x: np.ndarray, axis: int = -1) -> np.ndarray:
    x = x - np.max(x, axis=axis, keepdims=True)
    exp_x = np.exp(x)
    return cast(np.ndarray, exp_x / np.sum(exp_x, axis=axis, keepdims=True))


def scaled_dot_product_attention(q, k, v, mask=None):
    d_k = q.shape[-1]
    scores: np.ndarray = cast(np.ndarray, q @ k.T / np.sqrt(d_k))  # (seq_len, seq_len)
    if mask is not None:
        scores = scores + mask  # (seq_len, seq_len)
    weights: np.ndarray = softmax(scores, axis=-1)  # (seq_len, seq_len)
    return cast(np.ndarray, weights @ v), weights  # (seq_len, d_k)


def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads, x_cross=None, mask=None):
    kv_source: np.ndarray = x_cross if x_cross is not None else x

    heads: list[np.ndarray] = []
    all_weights = []

    for i in range(n_heads):
        q: np.ndarray = cast(np.ndarray, x @ w_q[i])  # (seq_len, d_k)
        k: np.ndarray = cast(np.ndarray, kv_source @ w_k[i])  # (seq_len, d_k)
        v: np.ndarray = cast(np.ndarray, kv_source @ w_v[i])  # (seq_len, d_k)

        head, weights = scaled_dot_product_attention(q, k, v, mask=mask)  # (seq_len, d_k)
        heads.append(head)
        all_weights.append(weights)

    concat = np.concatenate(heads, axis=-1)  # (seq_len, d_model)

    return cast(np.ndarray, concat @ w_o), np.stack(all_weights)  # (seq_len, d_model)


def cross_attention(y, h, Wq, Wk, Wv, Wo, heads):
    y, h = np.asarray(y, dtype=np.float64), np.asarray(h, dtype=np.float64)
    d = y.shape[1]
    per_head = lambda W: np.asarray(W).reshape(d, heads, d // heads).transpose(1, 0, 2)
    return multi_head_attention(y, per_head(Wq), per_head(Wk), per_head(Wv), Wo, heads,
                                x_cross=h)
