# question: mask_tokens
# fails: test_types_and_shapes, test_labels_and_corruption_rules, test_input_not_modified, test_replacement_split
# public: modified its input_ids
# makes: mt_fixed_split, mt_random_special
# batch G2 (labelled before grading)
# 0.8 and 0.5 written in, random ids from the whole vocabulary; also corrupts the caller's
# array in place (no diagnosis)
# split: measure
# source: GabrielLaurent/electra, electra/data/data_utils.py (mask_tokens: torch's full, bernoulli and
# source: randint are NumPy's full and the given rng's binomial and integers, the tokenizer's
# source: special-tokens mask np.isin(special_ids), its mask token mask_id, len(tokenizer.vocab)
# source: vocab_size, mlm_probability select_prob; it works on the ids it is given, as it did on the
# source: batch tensor)
import numpy as np


def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15, mask_prob=0.8, random_prob=0.1):
    inputs = np.asarray(input_ids)
    labels = inputs.copy()
    probability_matrix = np.full(labels.shape, select_prob)
    special_tokens_mask = np.isin(labels, list(special_ids))
    probability_matrix[special_tokens_mask] = 0.0
    masked_indices = rng.binomial(1, probability_matrix).astype(bool)
    labels[~masked_indices] = -100  # We only compute loss on masked tokens

    # 80% of the time, we replace masked input tokens with tokenizer.mask_token ([MASK])
    indices_replaced = rng.binomial(1, np.full(labels.shape, 0.8)).astype(bool) & masked_indices
    inputs[indices_replaced] = mask_id

    # 10% of the time, we replace masked input tokens with random word
    indices_random = rng.binomial(1, np.full(labels.shape, 0.5)).astype(bool) & masked_indices & ~indices_replaced
    random_words = rng.integers(vocab_size, size=labels.shape, dtype=np.int64)
    inputs[indices_random] = random_words[indices_random]

    # The rest of the time (10% of the time) we keep the masked input tokens unchanged
    return inputs, labels
