# question: mask_tokens
# fails: test_numpy_and_int_arguments
# public: -
# Validates its arguments with isinstance(x, int) and isinstance(p, float): a numpy
# integer vocab_size or an integer probability (1, 0) is rejected.
import numpy as np


def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15, mask_prob=0.8, random_prob=0.1):
    if not isinstance(vocab_size, int) or not isinstance(mask_id, int):
        raise TypeError("vocab_size and mask_id must be ints")
    for p in (select_prob, mask_prob, random_prob):
        if not isinstance(p, float) or not 0.0 <= p <= 1.0:
            raise ValueError(f"probabilities must be floats in [0, 1], got {p!r}")
    ids = np.asarray(input_ids)
    specials = np.array(list(special_ids), dtype=np.int64)
    selected = (rng.random(ids.shape) < select_prob) & ~np.isin(ids, specials)
    u = rng.random(ids.shape)
    ordinary = np.setdiff1d(np.arange(vocab_size), specials)
    random_ids = ordinary[rng.integers(0, len(ordinary), size=ids.shape)]
    corrupted = ids.astype(np.int64)
    corrupted[selected & (u < mask_prob)] = mask_id
    to_random = selected & (u >= mask_prob) & (u < mask_prob + random_prob)
    corrupted[to_random] = random_ids[to_random]
    return corrupted, np.where(selected, ids, -100).astype(np.int64)
