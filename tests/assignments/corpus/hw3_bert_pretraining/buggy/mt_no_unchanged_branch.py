# question: mask_tokens
# fails: test_replacement_split
# public: -
# diagnosis: mt_never_kept
# Every selected token is changed: [MASK] or random, never left as it is.
import numpy as np


def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15, mask_prob=0.8, random_prob=0.1):
    specials = set(special_ids)
    ordinary = [t for t in range(vocab_size) if t not in specials]
    corrupted = np.array(input_ids, dtype=np.int64)
    labels = np.full(corrupted.shape, -100, dtype=np.int64)
    for i in np.ndindex(corrupted.shape):
        if int(corrupted[i]) in specials or rng.random() >= select_prob:
            continue
        labels[i] = corrupted[i]
        if rng.random() < mask_prob:
            corrupted[i] = mask_id
        else:
            corrupted[i] = ordinary[rng.integers(len(ordinary))]
    return corrupted, labels
