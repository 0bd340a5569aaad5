# question: cross_attention
# fails: test_rectangular_shapes, test_matches_reference, test_decoder_positions_independent
# public: not (n_tgt, d)
# public: (heads, n_tgt, n_src)
# diagnosis: ca_roles_swapped
import numpy as np
def cross_attention(y, h, Wq, Wk, Wv, Wo, heads):
    d = y.shape[1]
    dk = d // heads
    split = lambda m: m.reshape(m.shape[0], heads, dk).transpose(1, 0, 2)
    q, k, v = split(h @ Wq), split(y @ Wk), split(y @ Wv)  # roles swapped
    s = q @ k.transpose(0, 2, 1) / np.sqrt(dk)
    w = np.exp(s - s.max(-1, keepdims=True)); w /= w.sum(-1, keepdims=True)
    return (w @ v).transpose(1, 0, 2).reshape(h.shape[0], d) @ Wo, w
