# question: mask_tokens
# fails: test_types_and_shapes, test_input_not_modified, test_replacement_split, test_random_ids_uniform
# public: modified its input_ids
# makes: mt_never_random, mt_never_kept
# batch E
# every target becomes [MASK] (a bernoulli of 1.0); also corrupts the caller's array in
# place (no diagnosis)
# split: measure
# source: series2/KD, adv_tools.py (mask_tokens: torch's full and bernoulli are NumPy's full and the
# source: given rng's binomial, the tokenizer's special-tokens mask np.isin(special_ids) (the padding
# source: id among them), its mask token mask_id, mlm_probability select_prob; the stub returns its
# source: inputs and labels, not the masked_indices beside them)
import numpy as np


def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15, mask_prob=0.8, random_prob=0.1):
    inputs, mlm_probability = np.asarray(input_ids), select_prob

    #labels : word id
    labels = inputs.copy()
    probability_matrix = np.full(labels.shape, mlm_probability)
    special_tokens_mask = np.isin(labels, list(special_ids))
    probability_matrix[special_tokens_mask] = 0.0
    masked_indices = rng.binomial(1, probability_matrix).astype(bool)
    labels[~masked_indices] = -100

    indices_replaced = rng.binomial(1, np.full(labels.shape, 1.0)).astype(bool) & masked_indices
    inputs[indices_replaced] = mask_id

    return inputs, labels
