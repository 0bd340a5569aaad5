# question: cross_attention
# fails: test_rectangular_shapes, test_matches_reference
# public: not (heads, n_tgt, n_src)
# makes: -
# batch G4 (labelled before grading)
# one head over the whole width: heads is ignored, its sqrt(d) is that one head's sqrt(d_k)
# (no diagnosis for the head split)
# split: measure
# source: bangbv/AlgorithmInPython, representations/embeddings/cross_attention.py (the script as a
# source: function in NumPy on a batch of one: T is y, S is h, the bias-free WQ, WK, WV, WO are Wq,
# source: Wk, Wv, Wo; it has one head with dk = d_model, so heads goes unused; its weights returned
# source: beside the output as that one head's, the batch axis dropped from the output)
import math

import numpy as np


def cross_attention(y, h, Wq, Wk, Wv, Wo, heads):
    T = np.asarray(y)[np.newaxis]      # target tokens
    S = np.asarray(h)[np.newaxis]      # source tokens
    d_model = T.shape[-1]
    dk = d_model      # one head

    Q = T @ Wq                            # (B, NT, dk)
    K = S @ Wk                            # (B, NS, dk)
    V = S @ Wv                            # (B, NS, dk)

    scores = Q @ np.swapaxes(K, -2, -1) / math.sqrt(dk)  # (B, NT, NS)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)          # (B, NT, NS)
    context = weights @ V                             # (B, NT, dk)

    out = context @ Wo                                # (B, NT, d_model)
    return out[0], weights
