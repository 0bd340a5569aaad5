# question: cross_attention
# fails: test_matches_reference
# public: -
# diagnosis: ca_no_output_projection
import numpy as np
def cross_attention(y, h, Wq, Wk, Wv, Wo, heads):
    n_t, d = y.shape
    dk = d // heads
    split = lambda m: m.reshape(m.shape[0], heads, dk).transpose(1, 0, 2)
    q, k, v = split(y @ Wq), split(h @ Wk), split(h @ Wv)
    s = q @ k.transpose(0, 2, 1) / np.sqrt(dk)
    w = np.exp(s - s.max(-1, keepdims=True)); w /= w.sum(-1, keepdims=True)
    return (w @ v).transpose(1, 0, 2).reshape(n_t, d), w
