# question: cross_attention
# fails: test_rectangular_shapes, test_matches_reference, test_every_encoder_position_visible, test_decoder_positions_independent, test_large_scores_stay_finite
# public: ValueError: matmul: Input operand 1 has a mismatch
# makes: ca_keys_from_decoder
# batch G4 (labelled before grading)
# the keys from the decoder states y, only the values from h
# split: measure
# source: dna2github/dna2sevord, study/ai/transformer.md (the decoder's second
# source: multi-head_attention(norm1->Q, norm1->K, encoder_out->V) written as NumPy, with its
# source: scaled_dot-product_attention and its split into contiguous heads, no MASK; norm1 is y,
# source: encoder_out is h; each head's weights returned beside the output)
import numpy as np


def softmax(s):
    e = np.exp(s - np.max(s, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def scaled_dot_product_attention(Q, K, V):
    d_k = Q.shape[-1]
    weights = softmax(Q @ K.T / np.sqrt(d_k))
    return weights @ V, weights


def cross_attention(y, h, Wq, Wk, Wv, Wo, heads):
    y = np.asarray(y, dtype=np.float64)
    h = np.asarray(h, dtype=np.float64)
    Q, K, V = y @ Wq, y @ Wk, h @ Wv
    n = Q.shape[-1] // heads
    outs, weights = [], []
    for i in range(heads):
        cols = slice(i * n, (i + 1) * n)
        out, w = scaled_dot_product_attention(Q[:, cols], K[:, cols], V[:, cols])
        outs.append(out)
        weights.append(w)
    return np.concatenate(outs, axis=-1) @ Wo, np.stack(weights)
