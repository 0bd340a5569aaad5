# question: mask_tokens
# fails: test_replacement_split, test_random_ids_uniform
# public: -
# makes: mt_never_random, mt_never_kept
# batch G2 (labelled before grading)
# split: measure
# source: subramaniam-lab-ucsd/immune-foundation-model, src/scimmune/collate.py
# source: (DataCollatorForCausalMLM.__call__ on ids already padded: torch's full and bernoulli are NumPy's
# source: full and the given rng's binomial, the tokenizer's special-tokens mask np.isin(special_ids),
# source: its mask_token_id mask_id, mlm_probability select_prob; pad_sequence's new tensor a copy)
import numpy as np


def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15, mask_prob=0.8, random_prob=0.1):
    input_ids = np.array(input_ids, dtype=np.int64)
    labels = input_ids.copy()

    probability_matrix = np.full(labels.shape, select_prob)
    special_mask = np.isin(labels, list(special_ids))
    probability_matrix[special_mask] = 0.0
    masked_indices = rng.binomial(1, probability_matrix).astype(bool)
    labels[~masked_indices] = -100
    input_ids[masked_indices] = mask_id

    return input_ids, labels
