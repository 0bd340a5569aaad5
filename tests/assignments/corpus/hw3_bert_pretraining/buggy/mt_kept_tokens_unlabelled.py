# question: mask_tokens
# fails: test_selection_rate, test_replacement_split
# public: -
# diagnosis: mt_kept_unlabelled
# The 10% kept targets get no label (only changed positions are predicted).
# Selection is seen through the labels: the kept targets look unselected, so the rate
# (13.5%) and the split (no kept ones) are both wrong as the outputs show them.
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
    return corrupted, np.where(to_mask | to_random, ids, -100).astype(np.int64)
