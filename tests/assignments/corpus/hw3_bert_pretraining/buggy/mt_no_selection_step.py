# question: mask_tokens
# fails: test_selection_rate, test_selection_is_independent
# public: with select_prob=0.0 nothing is selected
# diagnosis: mt_selects_all
# 80/10/10 applied to every ordinary token: the 15% selection step is missing.
# Everything selected: the rate is wrong, and with no spread left independence cannot be
# measured (that test pays nothing then).
import numpy as np


def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15, mask_prob=0.8, random_prob=0.1):
    ids = np.asarray(input_ids)
    selected = ~np.isin(ids, special_ids)
    u = rng.random(ids.shape)
    ordinary = np.setdiff1d(np.arange(vocab_size), special_ids)
    corrupted = ids.astype(np.int64)
    corrupted[selected & (u < mask_prob)] = mask_id
    to_random = selected & (u >= mask_prob) & (u < mask_prob + random_prob)
    corrupted[to_random] = rng.choice(ordinary, size=int(to_random.sum()))
    return corrupted, np.where(selected, ids, -100).astype(np.int64)
