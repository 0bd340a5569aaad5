# Hugging Face's numpy_mask_tokens (Bernoulli draws per position, random share scaled by
# what [MASK] leaves), with random replacements limited to the ordinary ids.
import numpy as np


def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15, mask_prob=0.8, random_prob=0.1):
    inputs = np.array(input_ids, dtype=np.int64)
    labels = inputs.copy()
    probability_matrix = np.full(labels.shape, select_prob)
    probability_matrix[np.isin(labels, special_ids)] = 0
    masked_indices = rng.binomial(1, probability_matrix).astype(bool)
    labels[~masked_indices] = -100
    indices_replaced = rng.binomial(1, mask_prob, size=labels.shape).astype(bool) & masked_indices
    inputs[indices_replaced] = mask_id
    remaining = 1.0 - mask_prob
    random_scaled = min(1.0, random_prob / remaining) if remaining > 0 else 0.0
    indices_random = (rng.binomial(1, random_scaled, size=labels.shape).astype(bool)
                      & masked_indices & ~indices_replaced)
    ordinary = np.setdiff1d(np.arange(vocab_size), special_ids)
    inputs[indices_random] = rng.choice(ordinary, size=np.count_nonzero(indices_random))
    return inputs, labels
