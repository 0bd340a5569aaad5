# question: mask_tokens
# fails: test_selection_is_independent
# public: -
# Exactly int(select_prob * n) targets in the whole batch, chosen without replacement.
import numpy as np


def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15, mask_prob=0.8, random_prob=0.1):
    ids = np.asarray(input_ids)
    candidates = np.flatnonzero(~np.isin(ids, special_ids))
    chosen = rng.permutation(candidates)[:int(select_prob * len(candidates))]
    selected = np.zeros(ids.size, dtype=bool)
    selected[chosen] = True
    selected = selected.reshape(ids.shape)
    u = rng.random(ids.shape)
    ordinary = np.setdiff1d(np.arange(vocab_size), special_ids)
    corrupted = ids.astype(np.int64)
    corrupted[selected & (u < mask_prob)] = mask_id
    to_random = selected & (u >= mask_prob) & (u < mask_prob + random_prob)
    corrupted[to_random] = rng.choice(ordinary, size=int(to_random.sum()))
    return corrupted, np.where(selected, ids, -100).astype(np.int64)
