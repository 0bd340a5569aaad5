# question: sample_next
# fails: test_top_k_beyond_vocabulary, test_uses_only_rng, test_rejects_invalid_arguments
# public: temperature 0 should raise ValueError
# makes: sn_unchecked, sn_not_only_rng, sn_top_k_beyond_vocabulary_raises
# 0 or a negative temperature and top_k < 1 accepted, mlx's global generator, and a
# top_k beyond the vocabulary an argpartition error (kth out of bounds)
# split: measure
# source: vllm-project/vllm-metal, vllm_metal/mlx_sampler.py (mlx_sample on the logits as a batch of
# source: one, min_p and top_p at their defaults (their branches left out), the stub's top_k=None its
# source: top_k=-1: mlx's arrays written as NumPy's, and mx.random.categorical, a Gumbel-max draw from
# source: mlx's global generator, as one from NumPy's)
import numpy as np


def mlx_sample(logits, temp=0.0, top_p=1.0, top_k=-1, min_p=0.0):
    if temp == 0.0:
        return np.argmax(logits, axis=-1)

    logits = logits / temp

    if top_k > 0:
        top_k_indices = np.argpartition(logits, -top_k, axis=-1)[:, -top_k:]
        top_k_values = np.take_along_axis(logits, top_k_indices, axis=-1)
        min_top_k = np.min(top_k_values, axis=-1, keepdims=True)

        mask = logits < min_top_k
        logits = np.where(mask, -float('inf'), logits)

    return np.argmax(logits + np.random.gumbel(size=logits.shape), axis=-1)


def sample_next(logits, temperature, rng, top_k=None):
    out = mlx_sample(np.asarray(logits)[None, :], temp=temperature,
                     top_k=-1 if top_k is None else top_k)
    return int(out[0])
