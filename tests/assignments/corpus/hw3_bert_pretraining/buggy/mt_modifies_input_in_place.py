# question: mask_tokens
# fails: test_input_not_modified
# public: modified its input_ids
# Writes the corruption into input_ids itself (labels are taken first, so they are right).
import numpy as np


def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15, mask_prob=0.8, random_prob=0.1):
    ids = input_ids
    selected = (rng.random(ids.shape) < select_prob) & ~np.isin(ids, special_ids)
    labels = np.where(selected, ids, -100).astype(np.int64)
    u = rng.random(ids.shape)
    ordinary = np.setdiff1d(np.arange(vocab_size), special_ids)
    ids[selected & (u < mask_prob)] = mask_id
    to_random = selected & (u >= mask_prob) & (u < mask_prob + random_prob)
    ids[to_random] = rng.choice(ordinary, size=int(to_random.sum()))
    return ids.astype(np.int64), labels
