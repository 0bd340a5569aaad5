# question: mask_tokens
# fails: test_labels_and_corruption_rules
# public: -
# diagnosis: mt_random_special
# Hugging Face's DataCollatorForLanguageModeling.numpy_mask_tokens, ported to the
# contract's arguments (rng for np.random, special_ids, the three probabilities). Its one
# difference from the contract: random replacements are drawn from the whole vocabulary,
# so they can be special ids.
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
    inputs[indices_random] = rng.integers(0, vocab_size, size=np.count_nonzero(indices_random))
    return inputs, labels
