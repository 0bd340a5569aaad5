# question: mask_tokens
# fails: test_reproducible_with_rng_only
# public: -
# diagnosis: mt_rng_copied
# Works on a copy of rng, so the caller's generator never advances: every call
# (every epoch) gets the same masking.
import copy

import numpy as np


def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15, mask_prob=0.8, random_prob=0.1):
    rng = copy.deepcopy(rng)
    ids = np.asarray(input_ids)
    selected = (rng.random(ids.shape) < select_prob) & ~np.isin(ids, special_ids)
    u = rng.random(ids.shape)
    ordinary = np.setdiff1d(np.arange(vocab_size), special_ids)
    corrupted = ids.astype(np.int64)
    corrupted[selected & (u < mask_prob)] = mask_id
    to_random = selected & (u >= mask_prob) & (u < mask_prob + random_prob)
    corrupted[to_random] = rng.choice(ordinary, size=int(to_random.sum()))
    return corrupted, np.where(selected, ids, -100).astype(np.int64)
