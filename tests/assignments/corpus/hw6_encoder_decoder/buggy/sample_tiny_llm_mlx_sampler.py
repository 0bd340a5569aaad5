# question: sample_next
# fails: test_top_k_beyond_vocabulary, test_uses_only_rng, test_rejects_invalid_arguments
# public: temperature 0 should raise ValueError
# makes: sn_unchecked, sn_not_only_rng, sn_top_k_beyond_vocabulary_raises
# 0 or a negative temperature and top_k < 1 accepted, mlx's global generator, and a
# top_k beyond the vocabulary an argpartition error (kth out of bounds)
# split: measure
# source: emmmoon/tiny-llm, src/tiny_llm/sampler.py (make_sampler with top_p=None, its sample called on
# source: the logits as a batch of one: mlx's arrays written as NumPy's, and mx.random.categorical, a
# source: Gumbel-max draw from mlx's global generator, as one from NumPy's)
import numpy as np


def make_sampler(temp, top_p, top_k):
    def sample(logprobs):
        if temp == 0:
            return np.argmax(logprobs, axis=-1)
        logprobs = logprobs.astype(np.float32)
        if top_k is not None and top_k > 0:
            mask_elements = np.argpartition(-logprobs, kth=top_k - 1, axis=-1)[:, top_k:]
            logprobs[:, mask_elements] = -np.inf
        if top_p is not None and top_p > 0:
            sorted_idx = np.argsort(-logprobs, axis=-1)
            sorted_logprobs = logprobs[:, sorted_idx]
            cumsum = sorted_logprobs.cumsum(axis=-1)
            mask = cumsum < top_p
            logprobs[:, sorted_idx] = np.where(mask, sorted_logprobs, -np.inf)

        logprobs = logprobs / temp
        return np.argmax(logprobs + np.random.gumbel(size=logprobs.shape), axis=-1)

    return sample


def sample_next(logits, temperature, rng, top_k=None):
    return int(make_sampler(temperature, None, top_k)(np.asarray(logits)[None, :])[0])
