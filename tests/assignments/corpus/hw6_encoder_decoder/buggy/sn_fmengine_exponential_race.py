# question: sample_next
# fails: test_uses_only_rng, test_rejects_invalid_arguments
# public: temperature 0 should raise ValueError
# makes: sn_unchecked, sn_not_only_rng
# split: measure
# source: xiaozheyao/fmengine, fmengine/generator/sampler.py (sample and multinomial_sample_one for one
# source: row of logits: torch's topk, softmax and global exponential_ written as NumPy's, the tensor
# source: answer read as an int)
import numpy as np


def _topk_values(x, k):
    if k < 0 or k > x.shape[-1]:
        raise RuntimeError("selected index k out of range")
    return -np.sort(-x)[:k]


def multinomial_sample_one(probs):
    q = np.random.exponential(1.0, size=probs.shape)
    return np.argmax(probs / q, axis=-1)


def sample_next(logits, temperature, rng, top_k=None):
    logits = logits / max(temperature, 1e-5)
    if top_k is not None:
        v = _topk_values(logits, min(top_k, logits.shape[-1]))
        pivot = v[-1]
        logits = np.where(logits < pivot, -np.inf, logits)
    e = np.exp(logits - np.max(logits))
    probs = e / e.sum()
    return int(multinomial_sample_one(probs))
