# question: bidirectional_self_attention
# fails: test_shapes, test_matches_reference, test_rows_sum_to_one_and_see_the_future, test_large_scores_stay_finite
# public: matmul: Input operand 1 has a mismatch
# makes: -
# batch F (labelled before grading)
# Q reshaped straight to (1, heads, T, d_k), then the softmax runs over the heads axis; the
# output only has d columns when T == heads (no diagnosis)
# source: jtappen1/Machine-Learning-From-Scratch, models/multi-head-attention/multi_head_attention.py
# source: (the script as a function: X is x as a batch of one, num_heads is heads, W_q ... W_o are
# source: Wq ... Wo; the batch axis dropped from the final output and the attention weights returned)
import numpy as np


def compute_scaled_attention(Q, K, V):
    d_k = Q.shape[-1]
    scores = Q @ K.transpose(0, 1, 3, 2)  # (batch, heads, seq, seq)
    scores = scores / np.sqrt(d_k)

    # Softmax along last axis (seq_len)
    weights = np.exp(scores - np.max(scores, axis=-1, keepdims=True))
    weights = weights / np.sum(weights, axis=-1, keepdims=True)

    output = weights @ V  # (batch, heads, seq_len, d_k)
    return output, weights


def combine_heads(x):
    batch_size, num_heads, seq_len, d_k = x.shape
    x = x.transpose(0, 2, 1, 3)  # → (batch_size, seq_len, num_heads, d_k)
    x = x.reshape(batch_size, seq_len, num_heads * d_k)
    return x


def bidirectional_self_attention(x, Wq, Wk, Wv, Wo, heads):
    X = x[np.newaxis]
    batch_size = 1  # The bumber of data values there are in our input
    num_heads = heads   # The number of heads
    seq_len = x.shape[0]     # The length of the sequence aka how many tokens there are in the input vector
    d_model = x.shape[1]     # The number of features that represent a token
    d_k = d_model // num_heads      # The dimension of the K vector

    # Calculate Q, K, V
    Q = X @ Wq
    K = X @ Wk
    V = X @ Wv

    # Reshape the weights to work between heads.
    # Reshape to  [batch_size, num_heads, sequence_length, d_head], splitting the token into 4 groups of 2 features.
    Q_split = Q.reshape(batch_size, num_heads, seq_len, d_k)
    # Transpose so each head gets all 3 tokens. shape: (batch_size, num_heads, seq_len, d_k)
    Q_heads = Q_split.transpose(0, 2, 1, 3)

    # Do the same for K and V
    K_split = K.reshape(batch_size, num_heads, seq_len, d_k)
    K_heads = K_split.transpose(0, 2, 1, 3)

    V_split = V.reshape(batch_size, num_heads, seq_len, d_k)
    V_heads = V_split.transpose(0, 2, 1, 3)

    attention_output, attention_weights = compute_scaled_attention(Q_heads, K_heads, V_heads)

    multi_head_output = combine_heads(attention_output)

    final_output = multi_head_output @ Wo
    return final_output[0], attention_weights[0]
