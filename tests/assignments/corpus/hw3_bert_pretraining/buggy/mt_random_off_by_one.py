# question: mask_tokens
# fails: test_random_ids_uniform
# public: -
# diagnosis: mt_last_id_never_drawn
# The last ordinary id can never be drawn (integers' upper bound is exclusive).
import numpy as np


def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15, mask_prob=0.8, random_prob=0.1):
    ids = np.asarray(input_ids)
    selected = (rng.random(ids.shape) < select_prob) & ~np.isin(ids, special_ids)
    u = rng.random(ids.shape)
    ordinary = np.setdiff1d(np.arange(vocab_size), special_ids)
    corrupted = ids.astype(np.int64)
    corrupted[selected & (u < mask_prob)] = mask_id
    to_random = selected & (u >= mask_prob) & (u < mask_prob + random_prob)
    corrupted[to_random] = ordinary[rng.integers(0, len(ordinary) - 1, size=int(to_random.sum()))]
    return corrupted, np.where(selected, ids, -100).astype(np.int64)
