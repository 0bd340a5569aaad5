# question: mask_tokens
# fails: test_replacement_split
# public: -
# diagnosis: mt_never_random
# `elif r < random_prob` after `if r < mask_prob`: the random branch can never run.
import numpy as np


def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15, mask_prob=0.8, random_prob=0.1):
    """Mistake: `elif r < random_prob` after `if r < mask_prob` never picks the random branch."""
    specials = set(special_ids)
    ordinary = [t for t in range(vocab_size) if t not in specials]
    corrupted = np.array(input_ids, dtype=np.int64)
    labels = np.full(corrupted.shape, -100, dtype=np.int64)
    for i in np.ndindex(corrupted.shape):
        if int(corrupted[i]) in specials or rng.random() >= select_prob:
            continue
        labels[i] = corrupted[i]
        r = rng.random()
        if r < mask_prob:
            corrupted[i] = mask_id
        elif r < random_prob:
            corrupted[i] = ordinary[rng.integers(len(ordinary))]
    return corrupted, labels
