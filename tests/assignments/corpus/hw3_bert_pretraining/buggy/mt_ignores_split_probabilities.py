# question: mask_tokens
# fails: test_replacement_split
# public: -
# diagnosis: mt_fixed_split
# select_prob is honoured but mask_prob and random_prob are not (80/10/10 hard-coded).
import numpy as np


def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15, mask_prob=0.8, random_prob=0.1):
    ids = np.asarray(input_ids)
    selected = (rng.random(ids.shape) < select_prob) & ~np.isin(ids, special_ids)
    u = rng.random(ids.shape)
    ordinary = np.setdiff1d(np.arange(vocab_size), special_ids)
    corrupted = ids.astype(np.int64)
    corrupted[selected & (u < 0.8)] = mask_id
    to_random = selected & (u >= 0.8) & (u < 0.9)
    corrupted[to_random] = rng.choice(ordinary, size=int(to_random.sum()))
    return corrupted, np.where(selected, ids, -100).astype(np.int64)
