# question: mask_tokens
# fails: test_replacement_split
# public: -
# diagnosis: mt_second_draw
# A fresh draw compared with random_prob for the random branch: 0.2 * 0.1 = 2%, not 10%.
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
        elif rng.random() < random_prob:
            corrupted[i] = ordinary[rng.integers(len(ordinary))]
    return corrupted, labels
