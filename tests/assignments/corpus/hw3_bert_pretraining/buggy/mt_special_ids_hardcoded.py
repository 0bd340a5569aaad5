# question: mask_tokens
# fails: test_labels_and_corruption_rules, test_selection_rate, test_random_ids_uniform
# public: -
# diagnosis: mt_specials_are_first_ids
# The special ids hard-coded as 0..3 (a vocabulary whose first ids are [PAD], [CLS], [SEP],
# [MASK]) instead of special_ids: ids >= 4 may be selected, random ids come from [4, vocab).
# Three properties break: [CLS]/[SEP] (7, 19) are selected and drawn (rules), the ordinary
# ids 1..3 are never selected (rate) nor drawn (uniformity).
import numpy as np


def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15, mask_prob=0.8, random_prob=0.1):
    ids = np.asarray(input_ids)
    selected = (rng.random(ids.shape) < select_prob) & (ids >= 4)
    u = rng.random(ids.shape)
    corrupted = ids.astype(np.int64)
    corrupted[selected & (u < mask_prob)] = mask_id
    to_random = selected & (u >= mask_prob) & (u < mask_prob + random_prob)
    corrupted[to_random] = rng.integers(4, vocab_size, size=int(to_random.sum()))
    return corrupted, np.where(selected, ids, -100).astype(np.int64)
