# question: cross_attention
# fails: test_matches_reference, test_every_encoder_position_visible, test_large_scores_stay_finite
# public: -
# makes: ca_causal, ca_naive_softmax, ca_no_output_projection
# batch G3 (labelled before grading)
# a tril mask over the (n_tgt, n_src) scores, exp without the max, no Wo (the decoder
# states added back instead); also each head reshaped from the flat (n, d) block rather
# than its column block (not interleaved columns: no diagnosis)
# split: measure
# source: cybershiptrooper/CV_bootcamp_SWB, bonus_exercises/attention/soln/attention.py
# source: (multihead_attention_soln for a batch of one: res_stream is y, the keys and values read from
# source: h as cross-attention wants (their reshape with h's own length), set_params given n_tgt, d
# source: and heads; the stub's Wo is taken and never read; returns the output and exp_qk, its
# source: weights, without the batch axis)
import numpy as np

b = 32 # batch size
wps = 64 # words per sentence
dm = 128 # dimension of model
nh = 8 # number of heads

def set_params(b_, wps_, dm_, nh_):
    global b, wps, dm, nh
    b, wps, dm, nh = b_, wps_, dm_, nh_


def multihead_attention_soln(res_stream, enc_stream, Wq, Wv, Wk):
    dh = dm / nh
    qs = np.einsum('bwm, mo -> bwo', res_stream, Wq).reshape((b, nh, wps, -1))
    vs = np.einsum('bwm, mo -> bwo', enc_stream, Wv).reshape((b, nh, enc_stream.shape[1], -1))
    ks = np.einsum('bwm, mo -> bwo', enc_stream, Wk).reshape((b, nh, enc_stream.shape[1], -1))
    qk = np.einsum('...nd, ...od->...no', qs, ks) / np.sqrt(dh)
    mask = np.tril(np.ones_like(qk))
    exp_qk = np.exp(qk)
    exp_qk *= mask
    exp_qk /= np.sum(exp_qk, axis=-1, keepdims=True)
    attn = np.einsum('...ij, ...jk->...ik', exp_qk, vs).reshape((b, wps, -1))
    out = attn + res_stream
    return out, exp_qk


def cross_attention(y, h, Wq, Wk, Wv, Wo, heads):
    y, h = np.asarray(y, dtype=np.float64), np.asarray(h, dtype=np.float64)
    set_params(1, y.shape[0], y.shape[1], heads)
    out, exp_qk = multihead_attention_soln(y[None], h[None], Wq, Wv, Wk)
    return out[0], exp_qk[0]
