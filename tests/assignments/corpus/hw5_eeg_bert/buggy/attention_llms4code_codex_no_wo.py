# question: bidirectional_self_attention
# fails: test_matches_reference, test_large_scores_stay_finite
# public: -
# makes: attn_naive_softmax, attn_no_output_projection
# batch G2 (labelled before grading)
# split: measure
# source: RasKrebs/llms4code_code_quality, multihead-attention/codex/short.py (MultiHeadAttention as
# source: functions: its random wq, wk, wv are Wq, Wk, Wv, num_heads heads, v = k = q = x a batch of
# source: one; it has no output weight, so Wo goes unused; the batch axis dropped from its output
# source: and attention weights)
import numpy as np


def split_heads(x, num_heads, depth):
    batch_size = x.shape[0]
    x = np.reshape(x, (batch_size, -1, num_heads, depth))
    return np.transpose(x, (0, 2, 1, 3))


def scaled_dot_product_attention(q, k, v):
    matmul_qk = np.matmul(q, np.transpose(k, (0, 1, 3, 2)))
    dk = np.float32(k.shape[-1])
    scaled_attention_logits = matmul_qk / np.sqrt(dk)
    attention_weights = np.exp(scaled_attention_logits) / np.sum(np.exp(scaled_attention_logits), axis=-1, keepdims=True)
    output = np.matmul(attention_weights, v)
    return output, attention_weights


def bidirectional_self_attention(x, Wq, Wk, Wv, Wo, heads):
    v = k = q = np.asarray(x)[np.newaxis]
    embedding_dim = q.shape[-1]
    num_heads = heads
    depth = embedding_dim // num_heads
    batch_size = q.shape[0]

    q = np.matmul(q, Wq)
    k = np.matmul(k, Wk)
    v = np.matmul(v, Wv)

    q = split_heads(q, num_heads, depth)
    k = split_heads(k, num_heads, depth)
    v = split_heads(v, num_heads, depth)

    scaled_attention, attention_weights = scaled_dot_product_attention(q, k, v)

    scaled_attention = np.transpose(scaled_attention, (0, 2, 1, 3))
    concat_attention = np.reshape(scaled_attention, (batch_size, -1, embedding_dim))

    return concat_attention[0], attention_weights[0]
