# question: cross_attention
# fails: test_matches_reference, test_every_encoder_position_visible
# public: -
# diagnosis: ca_causal
import numpy as np
def cross_attention(y, h, Wq, Wk, Wv, Wo, heads):
    (n_t, d), n_s = y.shape, h.shape[0]
    dk = d // heads
    split = lambda m: m.reshape(m.shape[0], heads, dk).transpose(1, 0, 2)
    q, k, v = split(y @ Wq), split(h @ Wk), split(h @ Wv)
    s = q @ k.transpose(0, 2, 1) / np.sqrt(dk) + np.triu(np.full((n_t, n_s), -np.inf), 1)
    w = np.exp(s - s.max(-1, keepdims=True)); w /= w.sum(-1, keepdims=True)
    return (w @ v).transpose(1, 0, 2).reshape(n_t, d) @ Wo, w
