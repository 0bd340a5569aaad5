# question: cross_attention
# fails: test_rectangular_shapes, test_matches_reference, test_decoder_positions_independent
# public: (heads, n_tgt, n_src)
# diagnosis: ca_keys_from_decoder
import numpy as np
def cross_attention(y, h, Wq, Wk, Wv, Wo, heads):
    """Mistake: keys and values from the decoder (self-attention), not from h."""
    n, d = y.shape
    dk = d // heads
    split = lambda m: m.reshape(m.shape[0], heads, dk).transpose(1, 0, 2)
    q, k, v = split(y @ Wq), split(y @ Wk), split(y @ Wv)
    s = q @ k.transpose(0, 2, 1) / np.sqrt(dk)
    w = np.exp(s - s.max(-1, keepdims=True))
    w /= w.sum(-1, keepdims=True)
    return (w @ v).transpose(1, 0, 2).reshape(n, d) @ Wo, w
