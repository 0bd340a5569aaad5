# question: bidirectional_self_attention
# fails: test_matches_reference, test_rows_sum_to_one_and_see_the_future
# public: future included
# diagnosis: attn_causal
import numpy as np
def bidirectional_self_attention(x, Wq, Wk, Wv, Wo, heads):
    """Mistake: a causal mask, as in a GPT-style decoder."""
    T, d = x.shape
    dk = d // heads
    split = lambda m: m.reshape(T, heads, dk).transpose(1, 0, 2)
    q, k, v = split(x @ Wq), split(x @ Wk), split(x @ Wv)
    s = q @ k.transpose(0, 2, 1) / np.sqrt(dk) + np.triu(np.full((T, T), -np.inf), 1)
    w = np.exp(s - s.max(-1, keepdims=True))
    w /= w.sum(-1, keepdims=True)
    return (w @ v).transpose(1, 0, 2).reshape(T, d) @ Wo, w
