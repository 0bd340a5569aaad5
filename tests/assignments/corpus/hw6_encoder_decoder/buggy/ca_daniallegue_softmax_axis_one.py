# question: cross_attention
# fails: test_rectangular_shapes, test_matches_reference, test_every_encoder_position_visible, test_decoder_positions_independent, test_large_scores_stay_finite
# public: ValueError: cannot reshape array
# makes: -
# batch G4 (labelled before grading)
# K and V reshaped with y's length (an error unless n_src == n_tgt), and the softmax over
# the queries (axis 1 of (heads, n_tgt, n_src)) (no hw6 diagnosis for either)
# split: measure
# source: daniallegue/numpy-transformer, transformer_architecture.py (multi_head_attention called as
# source: its decoder_layer calls it for cross-attention, q = y, k = v = h, as a batch of one with
# source: h = heads and no cross_mask; jax.numpy written as NumPy; the batch axis dropped from the
# source: output and the weights)
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


def cross_attention(y, h, Wq, Wk, Wv, Wo, heads):
    y = np.asarray(y)[np.newaxis]
    enc_out = np.asarray(h)[np.newaxis]
    out, weights = multi_head_attention(y, enc_out, enc_out, Wq, Wk, Wv, Wo, h=heads)
    return out[0], weights[0]
