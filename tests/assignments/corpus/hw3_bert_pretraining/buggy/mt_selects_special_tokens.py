# question: mask_tokens
# fails: test_labels_and_corruption_rules
# public: special tokens must never be selected
# diagnosis: mt_selects_specials
# Special tokens ([CLS], [SEP], [PAD]) can be selected too.
import numpy as np


def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15, mask_prob=0.8, random_prob=0.1):
    ids = np.asarray(input_ids)
    selected = rng.random(ids.shape) < select_prob
    u = rng.random(ids.shape)
    ordinary = np.setdiff1d(np.arange(vocab_size), special_ids)
    corrupted = ids.astype(np.int64)
    corrupted[selected & (u < mask_prob)] = mask_id
    to_random = selected & (u >= mask_prob) & (u < mask_prob + random_prob)
    corrupted[to_random] = rng.choice(ordinary, size=int(to_random.sum()))
    return corrupted, np.where(selected, ids, -100).astype(np.int64)
