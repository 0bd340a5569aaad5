# question: mask_tokens
# fails: test_types_and_shapes, test_labels_and_corruption_rules, test_input_not_modified, test_replacement_split
# public: modified its input_ids
# makes: mt_never_random, mt_fixed_split, mt_random_special
# batch E
# an int(replace_prob) test (0 for 0.1) skips the random branch, which would draw
# from the whole vocabulary; 80% [MASK] and 0.5 written in; also corrupts the caller's
# array in place (no diagnosis)
# source: richarddwang/electra_pytorch, pretrain.py at bebf72f (mask_tokens: torch's bernoulli and randint
# source: are the given rng's binomial and integers, mlm_probability select_prob, replace_prob random_prob,
# source: orginal_prob 1 - mask_prob - random_prob, mask_token_index mask_id, special_token_indices
# source: special_ids; it works on the ids it is given, as it did on the batch tensor; the stub returns
# source: its inputs and labels, not the mlm_mask beside them)
import numpy as np


def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15, mask_prob=0.8, random_prob=0.1):
    inputs, mlm_probability = np.asarray(input_ids), select_prob
    replace_prob, orginal_prob = random_prob, 1 - mask_prob - random_prob
    mask_token_index, special_token_indices, ignore_index = mask_id, special_ids, -100

    labels = inputs.copy()

    # Get positions to apply mlm (mask/replace/not changed). (mlm_probability)
    probability_matrix = np.full(labels.shape, mlm_probability)
    special_tokens_mask = np.full(inputs.shape, False, dtype=bool)
    for sp_id in special_token_indices:
        special_tokens_mask = special_tokens_mask | (inputs == sp_id)
    probability_matrix[special_tokens_mask] = 0.0
    mlm_mask = rng.binomial(1, probability_matrix).astype(bool)
    labels[~mlm_mask] = ignore_index  # We only compute loss on mlm applied tokens

    # mask  (mlm_probability * (1-replace_prob-orginal_prob))
    mask_prob = 1 - replace_prob - orginal_prob
    mask_token_mask = rng.binomial(1, np.full(labels.shape, 0.8)).astype(bool) & mlm_mask
    inputs[mask_token_mask] = mask_token_index

    # replace with a random token (mlm_probability * replace_prob)
    if int(replace_prob) != 0:
        rep_prob = replace_prob / (replace_prob + orginal_prob)
        replace_token_mask = rng.binomial(1, np.full(labels.shape, 0.5)).astype(bool) & mlm_mask & ~mask_token_mask
        random_words = rng.integers(vocab_size, size=labels.shape)
        inputs[replace_token_mask] = random_words[replace_token_mask]

    # do nothing (mlm_probability * orginal_prob)
    pass

    return inputs, labels
