# question: bidirectional_self_attention
# fails: test_matches_reference, test_rows_sum_to_one_and_see_the_future
# public: -
# makes: attn_over_queries
# batch G4 (labelled before grading)
# softmax(score, axis=1) on the (heads, T, T) scores: over the queries
# split: measure
# source: daniallegue/numpy-transformer, transformer_architecture.py (multi_head_attention with
# source: q = k = v = x as a batch of one and h = heads, no mask; jax.numpy written as NumPy; the batch
# source: axis dropped from the output and the weights)
import numpy as np


def softmax(x, axis=-1):
    x_max = np.max(x, axis=axis, keepdims=True)
    e_x = np.exp(x - x_max)
    sum_e = np.sum(e_x, axis=axis, keepdims=True)
    return e_x / sum_e


def scaled_dot_product_attention(q, k, v, mask=None):
    d_k = k.shape[-1]
    score = np.matmul(q, np.swapaxes(k, -1, -2))
    score = score / np.sqrt(d_k)

    if mask is not None:
        score = np.where(mask, -1e9, score)

    attention_w = softmax(score, axis=1)
    output = np.matmul(attention_w, v)
    return output, attention_w


def multi_head_attention(q, k, v, Wq, Wk, Wv, Wo, mask=None, h=8):
    batch_size, seq_len, dim_model = q.shape
    assert dim_model % h == 0, "dim_model must be divisible by h"
    dim_k = dim_model // h

    proj_q = np.matmul(q, Wq)
    proj_k = np.matmul(k, Wk)
    proj_v = np.matmul(v, Wv)

    Q = proj_q.reshape(batch_size, seq_len, h, dim_k)
    K = proj_k.reshape(batch_size, seq_len, h, dim_k)
    V = proj_v.reshape(batch_size, seq_len, h, dim_k)

    Q = np.swapaxes(Q, 1, 2)
    K = np.swapaxes(K, 1, 2)
    V = np.swapaxes(V, 1, 2)

    Q_flatten = Q.reshape(batch_size * h, seq_len, dim_k)
    K_flatten = K.reshape(batch_size * h, seq_len, dim_k)
    V_flatten = V.reshape(batch_size * h, seq_len, dim_k)

    mask_flatten = mask.reshape(batch_size * h, seq_len, seq_len) if mask is not None else None

    attention_out, attention_weights = scaled_dot_product_attention(Q_flatten, K_flatten, V_flatten, mask_flatten)
    attention_out = attention_out.reshape(batch_size, h, seq_len, dim_k)
    attention_weights = attention_weights.reshape(batch_size, h, seq_len, seq_len)

    attention_out = np.swapaxes(attention_out, 1, 2)
    concat_out = attention_out.reshape(batch_size, seq_len, dim_model)
    output = np.matmul(concat_out, Wo)
    return output, attention_weights


def bidirectional_self_attention(x, Wq, Wk, Wv, Wo, heads):
    x = np.asarray(x)[np.newaxis]
    out, weights = multi_head_attention(x, x, x, Wq, Wk, Wv, Wo, h=heads)
    return out[0], weights[0]
