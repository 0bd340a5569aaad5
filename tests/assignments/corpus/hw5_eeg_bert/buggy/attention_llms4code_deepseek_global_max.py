# question: bidirectional_self_attention
# fails: test_large_scores_stay_finite
# public: -
# makes: -
# batch G2 (labelled before grading)
# the softmax subtracts the maximum over every head and row, not each row's: a row far
# below the global maximum underflows to 0 / 0 (no diagnosis)
# split: measure
# source: RasKrebs/llms4code_code_quality, multihead-attention/deepseeker-coder/short.py (MultiHeadAttention
# source: as functions: its random W_q ... W_o are Wq ... Wo, num_heads heads, x a batch of one; the
# source: attention weights it computed are returned, the batch axis dropped from both)
import numpy as np


def softmax(x):
    e_x = np.exp(x - np.max(x))
    return e_x / e_x.sum(axis=-1, keepdims=True)


def split_heads(x, batch_size, num_heads, head_size):
    x = np.reshape(x, (batch_size, -1, num_heads, head_size))
    return np.transpose(x, (0, 2, 1, 3))


def bidirectional_self_attention(x, Wq, Wk, Wv, Wo, heads):
    x = np.asarray(x)[np.newaxis]
    emb_size = x.shape[-1]
    num_heads = heads
    head_size = emb_size // num_heads
    batch_size = x.shape[0]

    # Linear projections
    q = np.dot(x, Wq)
    k = np.dot(x, Wk)
    v = np.dot(x, Wv)

    # Split into heads
    q = split_heads(q, batch_size, num_heads, head_size)
    k = split_heads(k, batch_size, num_heads, head_size)
    v = split_heads(v, batch_size, num_heads, head_size)

    # Scaled dot-product attention
    attn_weights = np.matmul(q, k.transpose(0, 1, 3, 2)) / np.sqrt(head_size)
    attn_weights = softmax(attn_weights)

    # Apply attention
    attn_output = np.matmul(attn_weights, v)

    # Concatenate heads
    attn_output = np.transpose(attn_output, (0, 2, 1, 3))
    attn_output = np.reshape(attn_output, (batch_size, -1, emb_size))

    # Final linear layer
    output = np.dot(attn_output, Wo)

    return output[0], attn_weights[0]
