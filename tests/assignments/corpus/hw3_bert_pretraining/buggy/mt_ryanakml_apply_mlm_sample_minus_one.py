# question: mask_tokens
# fails: test_labels_and_corruption_rules, test_selection_rate, test_replacement_split, test_selection_is_independent
# public: -100 or the original id
# public: with select_prob=0.0 nothing is selected
# makes: mt_label_minus_one, mt_fixed_per_row, mt_fixed_split, mt_random_special
# batch blind-H2 (labelled before grading)
# max(1, int(select_prob * n)) targets per row (choice without replacement), -1 where
# nothing is selected, 0.8 and 0.9 written in, random ids from the whole vocabulary; also at
# least one target even with select_prob = 0 (no diagnosis)
# split: measure
# source: Ryanakml/BERT, python/pretrain.py (apply_mlm, run on each row: random.sample, random.random
# source: and random.choice are the given rng's choice without replacement, random and choice; its
# source: mask_prob is select_prob, '[CLS]'/'[SEP]' the special_ids, '[MASK]' mask_id, the vocabulary's
# source: keys the ids range(vocab_size))
import numpy as np


def apply_mlm(tokens, vocab_ids, mask_id, special_ids, rng, mask_prob=0.15):
    masked_tokens = tokens.copy()
    mlm_labels = [-1] * len(tokens)

    # Don't mask special tokens [CLS] and [SEP]
    maskable_indices = [i for i, token in enumerate(tokens)
                        if token not in special_ids]

    # Number of tokens to mask
    n_to_mask = max(1, int(mask_prob * len(maskable_indices)))

    # Randomly select indices to mask
    mask_indices = rng.choice(maskable_indices, n_to_mask, replace=False)

    for idx in mask_indices:
        # Store the original token as the label
        mlm_labels[idx] = tokens[idx]

        rand = rng.random()
        if rand < 0.8:
            # 80% of the time, replace with [MASK]
            masked_tokens[idx] = mask_id
        elif rand < 0.9:
            # 10% of the time, replace with random word
            masked_tokens[idx] = rng.choice(vocab_ids)
        # 10% of the time, keep the original word

    return masked_tokens, mlm_labels


def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15, mask_prob=0.8, random_prob=0.1):
    ids = np.asarray(input_ids)
    rows = ids.reshape(-1, ids.shape[-1]) if ids.ndim else ids.reshape(1, 1)
    vocab_ids = list(range(vocab_size))
    specials = set(int(s) for s in special_ids)
    corrupted = np.empty(rows.shape, dtype=np.int64)
    labels = np.empty(rows.shape, dtype=np.int64)
    for r in range(rows.shape[0]):
        masked, lab = apply_mlm([int(t) for t in rows[r]], vocab_ids, mask_id, specials, rng,
                                mask_prob=select_prob)
        corrupted[r], labels[r] = masked, lab
    return corrupted.reshape(ids.shape), labels.reshape(ids.shape)
