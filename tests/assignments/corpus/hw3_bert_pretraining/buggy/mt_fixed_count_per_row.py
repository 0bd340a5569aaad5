# question: mask_tokens
# fails: test_selection_is_independent
# public: -
# diagnosis: mt_fixed_per_row
# Exactly round(select_prob * n) targets per row (rng.choice without replacement), the
# sampler of the lesson's "default_rng(42) gives [1, 13, 14]": not independent selection.
import numpy as np


def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15, mask_prob=0.8, random_prob=0.1):
    ids = np.asarray(input_ids)
    rows = ids.reshape(-1, ids.shape[-1]) if ids.ndim else ids.reshape(1, 1)
    selected = np.zeros(rows.shape, dtype=bool)
    for r in range(rows.shape[0]):
        candidates = np.flatnonzero(~np.isin(rows[r], special_ids))
        k = int(round(select_prob * len(candidates)))
        selected[r, rng.choice(candidates, size=k, replace=False)] = True
    selected = selected.reshape(ids.shape)
    u = rng.random(ids.shape)
    ordinary = np.setdiff1d(np.arange(vocab_size), special_ids)
    corrupted = ids.astype(np.int64)
    corrupted[selected & (u < mask_prob)] = mask_id
    to_random = selected & (u >= mask_prob) & (u < mask_prob + random_prob)
    corrupted[to_random] = rng.choice(ordinary, size=int(to_random.sum()))
    return corrupted, np.where(selected, ids, -100).astype(np.int64)
