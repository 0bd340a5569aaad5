# question: cross_attention
# fails: test_rectangular_shapes, test_matches_reference, test_every_encoder_position_visible, test_decoder_positions_independent, test_large_scores_stay_finite
# public: IndexError: too many indices for array
# makes: -
# batch G4 (labelled before grading)
# np.asarray(None) is not None: the mask branch indexes a 0-d array, an IndexError on every
# call (no diagnosis)
# split: measure
# source: AmritanshuV/Numpy-Transformer, layers/combined/self_attention.py, with the Softmax of
# source: AkiRusProd/numpy-transformer, transformer/activations.py, the project it copies
# source: (MultiHeadAttention.forward with query = y, key = value = h as a batch of one, mask=None as
# source: the stub has none, no dropout: its bias-free K, Q, V Dense layers are Wk, Wq, Wv and its O
# source: layer Wo with a zero bias; the batch axis dropped from the output and the attention)
import numpy as np


class Softmax:
    def __init__(self) -> None:
        self.axis = -1

    def forward(self, x):
        self.x = x
        e_x = np.exp(x - np.max(x, axis = self.axis, keepdims=True))

        self.softmax =  e_x / np.sum(e_x, axis = self.axis, keepdims=True)
        return self.softmax


class MultiHeadAttention:
    def __init__(self, Wq, Wk, Wv, Wo, d_model = 512, heads_num = 8):
        self.d_model = d_model
        self.heads_num = heads_num

        self.d_k, self.d_q, self.d_v = self.d_model // heads_num, self.d_model // heads_num, self.d_model // heads_num
        self.scale = np.sqrt(self.d_k)

        self.W_K, self.W_Q, self.W_V, self.W_O, self.b_O = Wk, Wq, Wv, Wo, np.zeros(d_model)

        self.activation = Softmax()

    def split_heads_forward(self, x):
        batch_size = x.shape[0]

        return x.reshape(batch_size, -1, self.heads_num, self.d_k).transpose(0, 2, 1, 3)

    def group_heads_forward(self, x):
        batch_size = x.shape[0]

        return x.transpose(0, 2, 1, 3).reshape(batch_size, -1, self.heads_num * self.d_k)

    def forward(self, query, key, value, mask, training = True):

        self.key_len, self.query_len, self.value_len = key.shape[1], query.shape[1], value.shape[1]

        K = np.dot(key, self.W_K)
        Q = np.dot(query, self.W_Q)
        V = np.dot(value, self.W_V)

        self.K = self.split_heads_forward(K)
        self.Q = self.split_heads_forward(Q)
        self.V = self.split_heads_forward(V)

        energy = np.matmul(self.Q, self.K.transpose(0, 1, 3, 2)) / self.scale

        self.mask = np.asarray(mask)
        if self.mask is not None:
            self.mask = self.mask[:, np.newaxis, ...]

            energy = np.where(self.mask == 0, float('-inf'), energy)#float("-1e20")

        attention = self.activation.forward(energy)

        output = np.matmul(attention, self.V)

        concat_output = self.group_heads_forward(output)

        O = np.dot(concat_output, self.W_O) + self.b_O

        return O, attention


def cross_attention(y, h, Wq, Wk, Wv, Wo, heads):
    y = np.asarray(y)[np.newaxis]
    enc = np.asarray(h)[np.newaxis]
    attn = MultiHeadAttention(Wq, Wk, Wv, Wo, d_model=y.shape[-1], heads_num=heads)
    out, weights = attn.forward(y, enc, enc, None)
    return out[0], weights[0]
