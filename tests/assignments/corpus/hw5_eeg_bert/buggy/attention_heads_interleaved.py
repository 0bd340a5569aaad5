# question: bidirectional_self_attention
# fails: test_matches_reference
# public: -
# diagnosis: attn_interleaved
import numpy as np
def bidirectional_self_attention(x, Wq, Wk, Wv, Wo, heads):
    T, d = x.shape
    dk = d // heads
    split = lambda m: m.reshape(T, dk, heads).transpose(2, 0, 1)  # column i goes to head i % heads
    q, k, v = split(x @ Wq), split(x @ Wk), split(x @ Wv)
    s = q @ k.transpose(0, 2, 1) / np.sqrt(dk)
    w = np.exp(s - s.max(-1, keepdims=True))
    w /= w.sum(-1, keepdims=True)
    return (w @ v).transpose(1, 2, 0).reshape(T, d) @ Wo, w
