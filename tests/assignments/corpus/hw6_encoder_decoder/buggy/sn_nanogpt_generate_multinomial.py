# question: sample_next
# fails: test_uses_only_rng, test_rejects_invalid_arguments
# public: -
# makes: sn_unchecked, sn_not_only_rng
# batch F (labelled before grading)
# torch's global generator (NumPy's once translated); a negative temperature is used, a
# top_k of 0 gives an IndexError
# source: karpathy/nanoGPT, model.py (GPT.generate's sampling of one token: the logits of the last
# source: position are the stub's logits as a batch of one; torch's topk, softmax and multinomial, a
# source: draw from torch's global generator, written as NumPy's, and the sampled index read as an int)
import numpy as np


def _topk_values(x, k):
    if k < 0 or k > x.shape[-1]:
        raise RuntimeError("selected index k out of range")
    return -np.sort(-x, axis=-1)[:, :k]


def _softmax(x, dim=-1):
    e = np.exp(x - np.max(x, axis=dim, keepdims=True))
    return e / np.sum(e, axis=dim, keepdims=True)


def _multinomial(probs, num_samples=1):
    return np.array([np.random.choice(probs.shape[-1], size=num_samples, p=row) for row in probs])


def sample_next(logits, temperature, rng, top_k=None):
    logits = np.asarray(logits)[None, :]
    # pluck the logits at the final step and scale by desired temperature
    logits = logits / temperature
    # optionally crop the logits to only the top k options
    if top_k is not None:
        v = _topk_values(logits, min(top_k, logits.shape[-1]))
        logits[logits < v[:, [-1]]] = -float('Inf')
    # apply softmax to convert logits to (normalized) probabilities
    probs = _softmax(logits, dim=-1)
    # sample from the distribution
    idx_next = _multinomial(probs, num_samples=1)
    return int(idx_next[0, 0])
