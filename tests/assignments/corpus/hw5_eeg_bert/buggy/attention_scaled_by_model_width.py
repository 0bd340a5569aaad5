# question: bidirectional_self_attention
# fails: test_matches_reference
# public: -
# diagnosis: attn_by_model_width
import numpy as np
def bidirectional_self_attention(x, Wq, Wk, Wv, Wo, heads):
    T, d = x.shape
    dk = d // heads
    split = lambda m: m.reshape(T, heads, dk).transpose(1, 0, 2)
    q, k, v = split(x @ Wq), split(x @ Wk), split(x @ Wv)
    s = q @ k.transpose(0, 2, 1) / np.sqrt(d)
    w = np.exp(s - s.max(-1, keepdims=True))
    w /= w.sum(-1, keepdims=True)
    return (w @ v).transpose(1, 0, 2).reshape(T, d) @ Wo, w
