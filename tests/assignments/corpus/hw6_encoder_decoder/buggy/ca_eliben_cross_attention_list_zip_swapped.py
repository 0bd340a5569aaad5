# question: cross_attention
# fails: test_matches_reference
# public: -
# makes: -
# batch blind-H3 (labelled before grading)
# zip(Wks, Wqs, Wvs) bound to (Wq, Wk, Wv): the queries are y @ Wk, the keys h @ Wq (the
# roles of y and h are right; no declared mistake)
# split: measure
# source: eliben/deep-learning-samples, transformer-attention/multiheadattention.py
# source: (multihead_cross_attention_list and softmax.py's softmax_lastdim on a batch of one: the
# source: per-head lists are the column blocks of Wq, Wk, Wv; each head's att also kept, to return
# source: the weights the stub returns)
import numpy as np


def softmax_lastdim(x):
    # Subtract the max for numerical stability
    ex = np.exp(x - np.max(x, axis=-1, keepdims=True))
    # Divide by sums across last dimension
    return ex / np.sum(ex, axis=-1, keepdims=True)


def multihead_cross_attention_list(xq, xv, Wqs, Wks, Wvs, Wp, atts):
    # Check shapes.
    NH = len(Wks)
    HS = Wks[0].shape[1]
    assert len(Wks) == len(Wqs) == len(Wvs)
    for W in Wqs + Wks + Wvs:
        assert W.shape[1] == HS
    assert Wp.shape[0] == NH * HS

    # List of head outputs
    head_outs = []

    for Wq, Wk, Wv in zip(Wks, Wqs, Wvs):
        q = xq @ Wq  # (B, Nq, HS)
        k = xv @ Wk  # (B, Nv, HS)
        v = xv @ Wv  # (B, Nv, HS)

        kq = q @ k.swapaxes(-2, -1) / np.sqrt(k.shape[-1])  # (B, Nq, Nv)

        att = softmax_lastdim(kq)  # (B, Nq, Nv)
        atts.append(att)
        head_outs.append(att @ v)  # (B, Nq, HS)

    # Concatenate the head outputs and apply the final linear projection
    all_heads = np.concatenate(head_outs, axis=-1)  # (B, Nq, NH * HS)
    return all_heads @ Wp  # (B, Nq, D)


def cross_attention(y, h, Wq, Wk, Wv, Wo, heads):
    y, h = np.asarray(y, dtype=np.float64), np.asarray(h, dtype=np.float64)
    hs = y.shape[1] // heads
    blocks = [slice(i * hs, (i + 1) * hs) for i in range(heads)]
    Wqs = [np.asarray(Wq)[:, b] for b in blocks]
    Wks = [np.asarray(Wk)[:, b] for b in blocks]
    Wvs = [np.asarray(Wv)[:, b] for b in blocks]
    atts = []
    out = multihead_cross_attention_list(y[np.newaxis], h[np.newaxis], Wqs, Wks, Wvs,
                                         np.asarray(Wo), atts)
    return out[0], np.stack([att[0] for att in atts])
