# question: mask_tokens
# fails: test_labels_and_corruption_rules, test_selection_rate, test_replacement_split, test_selection_is_independent
# public: labels must be -100 or the original id
# public: with select_prob=0.0 nothing is selected
# The selection and the 80/10/10 split are right, but the unselected positions are
# labelled 0 (a padding id some libraries ignore) instead of -100: every ordinary
# position reads as a target, though only the selected ones were changed.
import numpy as np


def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15, mask_prob=0.8, random_prob=0.1):
    ids = np.asarray(input_ids)
    ordinary = np.setdiff1d(np.arange(vocab_size), special_ids)
    selected = ~np.isin(ids, special_ids) & (rng.random(ids.shape) < select_prob)
    u = rng.random(ids.shape)
    corrupted = ids.astype(np.int64)
    corrupted[selected & (u < mask_prob)] = mask_id
    to_random = selected & (u >= mask_prob) & (u < mask_prob + random_prob)
    corrupted[to_random] = rng.choice(ordinary, size=int(to_random.sum()))
    return corrupted, np.where(selected, ids, 0).astype(np.int64)
