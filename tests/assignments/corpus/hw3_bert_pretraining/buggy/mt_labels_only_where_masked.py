# question: mask_tokens
# fails: test_labels_and_corruption_rules, test_selection_rate, test_replacement_split
# public: not targets (label -100) must keep their id
# diagnosis: mt_labels_only_masked
# Labels only at the [MASK] positions: random and kept targets are not predicted.
# Random targets change without a label (a rule); selection, seen through the labels, has
# the rate 12% and a split of all [MASK].
import numpy as np


def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15, mask_prob=0.8, random_prob=0.1):
    ids = np.asarray(input_ids)
    selected = (rng.random(ids.shape) < select_prob) & ~np.isin(ids, special_ids)
    u = rng.random(ids.shape)
    ordinary = np.setdiff1d(np.arange(vocab_size), special_ids)
    corrupted = ids.astype(np.int64)
    to_mask = selected & (u < mask_prob)
    corrupted[to_mask] = mask_id
    to_random = selected & (u >= mask_prob) & (u < mask_prob + random_prob)
    corrupted[to_random] = rng.choice(ordinary, size=int(to_random.sum()))
    return corrupted, np.where(to_mask, ids, -100).astype(np.int64)
