# question: sample_next
# fails: test_returns_an_id, test_temperature_distribution, test_top_k_distribution, test_top_k_beyond_vocabulary, test_large_logits, test_uses_only_rng, test_rejects_invalid_arguments
# public: keep_dims
# makes: sn_unchecked, sn_not_only_rng, sn_ignores_top_k
# batch G3 (labelled before grading)
# np.max(..., keep_dims=True) raises TypeError on every call; were it fixed: t = 0 becomes
# 0.1 (a negative t is used), np.random.choice, top_k never read
# split: measure
# source: 22anushka/DeepLearning-coding-problems, temperature_sampling.py (temp_sampling with t the
# source: stub's temperature; the stub's rng and top_k are taken and never read)
import numpy as np


# basically, scale the softmax exponent calculation probability by temperature to scale probability values towards one hot if temperature is low and towards uniform if temperature is high
def sample_next(logits, temperature, rng, top_k=None):
  t = temperature

  # convert logits to probs while scaling by temperature
  stable_logits = np.max(logits, axis=-1, keep_dims=True)
  t = 0.1 if t == 0 else t
  temp_scaled = np.exp((logits-stable_logits)/t)/np.sum(np.exp((logits-stable_logits)/t), axis=-1)

  # can call sampling method given the probabilities from here
  # random sampling
  return np.random.choice(len(temp_scaled), p=temp_scaled)
