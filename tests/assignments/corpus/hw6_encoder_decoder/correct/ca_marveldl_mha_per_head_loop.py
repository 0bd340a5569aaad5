# split: measure
# source: MarvelDL/numpy-transformer, attention/mha.py, attention/scaled_dot_product.py and
# source: utils/utils_numpy.py (MultiHeadAttention.forward with Q = y, K = V = h as a batch of one, no
# source: mask: its random W_Q ... W_O are Wq ... Wo; its list of per-head weights stacked, the batch
# source: axis dropped from the output and the weights)
import numpy as np


def softmax(x, axis=-1):

    #subtract max for stability
    exp_x = np.exp(x-np.max(x, axis=axis, keepdims=True))

    return exp_x/np.sum(exp_x, axis=axis, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None):

    # d_k = dimension of queries and keys
    d_k = Q.shape[-1]

    # Raw attention scores (QK^T)
    scores = np.matmul(Q, K.transpose(0,2,1))

    #Scaling by sqrt(d_k)
    scores = scores/np.sqrt(d_k)

    # Apply mask (set masked positions to -1e9 so that softmax ~ 0)
    if mask is not None:
        scores = np.where(mask==0, -1e9, scores)

    # Softmax across last axis (keys)
    attention_weights  = softmax(scores, axis=-1)

    # weighted sum of values
    output = np.matmul(attention_weights, V)

    return output, attention_weights


class MultiHeadAttention:

    def __init__(self, Wq, Wk, Wv, Wo, d_model, num_heads):
        assert d_model % num_heads == 0 #d_model must be divisible by num_heads

        self.d_model = d_model
        self.num_heads =  num_heads
        self.d_k = d_model//num_heads

        self.W_Q = Wq
        self.W_K = Wk
        self.W_V = Wv
        self.W_O = Wo

    def split_heads(self, x, batch_size):

        x = x.reshape(batch_size, -1, self.num_heads, self.d_k)

        return x.transpose(0, 2, 1, 3) #swap num_heads and seq_len

    def combine_heads(self, x, batch_size): #Inverse of split_heads

        x = x.transpose(0, 2, 1, 3).reshape(batch_size, -1, self.d_model)

        return x

    def forward(self, Q, K, V, mask=None):
        batch_size = Q.shape[0]

        #Linear projections
        Q_proj = Q @ self.W_Q #matmul
        K_proj = K @ self.W_K
        V_proj = V @ self.W_V

        #Split into heads
        Q_heads = self.split_heads(Q_proj, batch_size)
        K_heads = self.split_heads(K_proj, batch_size)
        V_heads = self.split_heads(V_proj, batch_size)

        outputs, attn_weights = [], []
        for i in range(self.num_heads):
            out, attn = scaled_dot_product_attention(Q_heads[:, i, :, :],
                                                     K_heads[:, i, :, :],
                                                     V_heads[:, i, :, :],
                                                     mask)
            outputs.append(out)
            attn_weights.append(attn)

        concat = np.stack(outputs, axis=1)
        concat = self.combine_heads(concat, batch_size)

        output = concat @ self.W_O
        return output, attn_weights


def cross_attention(y, h, Wq, Wk, Wv, Wo, heads):
    y = np.asarray(y)[np.newaxis]
    h = np.asarray(h)[np.newaxis]
    mha = MultiHeadAttention(Wq, Wk, Wv, Wo, y.shape[-1], heads)
    output, attn_weights = mha.forward(y, h, h)
    return output[0], np.stack([w[0] for w in attn_weights])
