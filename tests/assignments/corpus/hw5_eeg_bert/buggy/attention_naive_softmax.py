# question: bidirectional_self_attention
# fails: test_large_scores_stay_finite
# public: -
# diagnosis: attn_naive_softmax
import numpy as np
def bidirectional_self_attention(x, Wq, Wk, Wv, Wo, heads):
    T, d = x.shape
    dk = d // heads
    split = lambda m: m.reshape(T, heads, dk).transpose(1, 0, 2)
    q, k, v = split(x @ Wq), split(x @ Wk), split(x @ Wv)
    with np.errstate(over="ignore", invalid="ignore"):
        w = np.exp(q @ k.transpose(0, 2, 1) / np.sqrt(dk))  # overflows for large scores
        w /= w.sum(-1, keepdims=True)
    return (w @ v).transpose(1, 0, 2).reshape(T, d) @ Wo, w
