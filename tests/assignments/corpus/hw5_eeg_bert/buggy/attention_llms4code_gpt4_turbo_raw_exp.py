# question: bidirectional_self_attention
# fails: test_large_scores_stay_finite
# public: -
# makes: attn_naive_softmax
# batch G2 (labelled before grading)
# split: measure
# source: RasKrebs/llms4code_code_quality, multihead-attention/gpt-4-turbo/short.py (MultiHeadAttention
# source: as functions: its random W_Q ... W_O are Wq ... Wo, num_heads heads, x a batch of one; the
# source: attention weights it computed and dropped are returned, the batch axis dropped from both)
import numpy as np


def split_heads(x, num_heads, depth):
    batch_size = x.shape[0]
    return x.reshape(batch_size, -1, num_heads, depth).transpose(0, 2, 1, 3)


def scaled_dot_product_attention(Q, K, V):
    matmul_qk = np.matmul(Q, K.transpose(0, 1, 3, 2))

    # Scale the product
    dk = np.sqrt(K.shape[-1])
    scaled_attention_logits = matmul_qk / dk

    # Apply softmax
    attention_weights = np.exp(scaled_attention_logits) / np.sum(np.exp(scaled_attention_logits), axis=-1, keepdims=True)

    # Weighted sum to get output
    output = np.matmul(attention_weights, V)

    return output, attention_weights


def bidirectional_self_attention(x, Wq, Wk, Wv, Wo, heads):
    x = np.asarray(x)[np.newaxis]
    embedding_size = x.shape[-1]
    num_heads = heads
    depth = embedding_size // num_heads
    batch_size = x.shape[0]

    Q = np.dot(x, Wq)
    K = np.dot(x, Wk)
    V = np.dot(x, Wv)

    Q = split_heads(Q, num_heads, depth)
    K = split_heads(K, num_heads, depth)
    V = split_heads(V, num_heads, depth)

    attention_output, attention_weights = scaled_dot_product_attention(Q, K, V)
    attention_output = attention_output.transpose(0, 2, 1, 3).reshape(batch_size, -1, embedding_size)

    output = np.dot(attention_output, Wo)
    return output[0], attention_weights[0]
