# question: sample_next
# fails: test_top_k_beyond_vocabulary, test_uses_only_rng, test_rejects_invalid_arguments
# public: RuntimeError: probability tensor contains
# makes: sn_not_only_rng, sn_unchecked, sn_top_k_beyond_vocabulary_raises
# batch blind-H3 (labelled before grading)
# torch's global generator; no check of temperature or top_k (a negative temperature is
# used, 0 gives nan probabilities); torch.topk raises for a top_k beyond the vocabulary;
# also the temperature ignored whenever top_k is given (no diagnosis for that)
# split: measure
# source: BjarniHaukur/ngram-llm-analysis, ngram_llm_analysis/utils/sample.py (sample_with_temp when top_k
# source: is None, top_k_sample with k = top_k otherwise; torch's softmax, topk and multinomial (a draw
# source: from torch's global generator, raising RuntimeError as torch does) written as NumPy's, the
# source: sampled id an int; the stub's rng is taken and never read)
import numpy as np


def _softmax(x):
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def _topk(x, k):
    if k < 0 or k > x.shape[-1]:
        raise RuntimeError("selected index k out of range")
    indices = np.argsort(-x, kind="stable")[:k]
    return x[indices], indices


def _multinomial(p, num_samples=1):
    if p.size == 0 or not np.all(np.isfinite(p)) or np.any(p < 0):
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    if p.sum() <= 0:
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    return np.random.choice(p.shape[-1], size=num_samples, p=p / p.sum())


def sample_with_temp(logits, temperature=1.0):
    p = _softmax(logits / temperature)
    return _multinomial(p, 1)[0]


def top_k_sample(logits, k=50):
    p = _softmax(logits)
    top_probs, top_indices = _topk(p, k)
    top_probs /= top_probs.sum()
    sampled_index = _multinomial(top_probs, 1)
    return top_indices[sampled_index][0]


def sample_next(logits, temperature, rng, top_k=None):
    logits = np.asarray(logits, dtype=np.float64)
    if top_k is None:
        return int(sample_with_temp(logits, temperature))
    return int(top_k_sample(logits, top_k))
