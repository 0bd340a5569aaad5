# question: bidirectional_self_attention
# fails: test_shapes, test_matches_reference, test_rows_sum_to_one_and_see_the_future, test_large_scores_stay_finite
# public: weights has shape
# makes: attn_naive_softmax, attn_no_output_projection
# batch G4 (labelled before grading)
# exp(s) / np.sum(exp(s), axis=-1) without keepdims (each column divided by another row's
# sum), no Wo; one head over the whole width, so heads is ignored and its sqrt(d) is that
# one head's sqrt(d_k) (no diagnosis for the head split)
# split: measure
# source: YVSemlani/numpy-transformer, modules/attention.py, functions.py and linear.py
# source: (SingleHeadAttention.forward on x as a batch of one: its LinearLayer weights are Wq, Wk, Wv
# source: with their zero biases; it has one head and no output weight, so heads and Wo go unused;
# source: the weights attn it computed returned beside the output (its batch axis of one standing
# source: for its one head), the batch axis dropped from the output)
import numpy as np


class Softmax:
    def forward(self, x):
        x = np.exp(x)
        return x / np.sum(x, axis=-1)

    def __call__(self, x):
        return self.forward(x)


def bidirectional_self_attention(x, Wq, Wk, Wv, Wo, heads):
    x = np.asarray(x)[np.newaxis]
    hidden_dim = x.shape[-1]
    softmax = Softmax()

    q = np.dot(x, Wq) + np.zeros(hidden_dim)
    k = np.dot(x, Wk) + np.zeros(hidden_dim)
    v = np.dot(x, Wv) + np.zeros(hidden_dim)

    kv = q @ np.transpose(k, (0, 2, 1))
    kv = kv / np.sqrt(hidden_dim)
    attn = softmax(kv)
    attn_v = attn @ v
    return attn_v[0], attn
