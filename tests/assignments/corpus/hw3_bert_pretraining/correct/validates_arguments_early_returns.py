# Validates its arguments as numbers (operator.index, numbers.Real), returns early when
# select_prob is 0 (int64 copies), draws the split with rng.choice; the loss returns a
# fresh torch.zeros(()) when nothing is selected (no graph, nothing read from the logits).
import numbers
import operator

import numpy as np
import torch
import torch.nn.functional as F


def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15, mask_prob=0.8, random_prob=0.1):
    vocab_size, mask_id = operator.index(vocab_size), operator.index(mask_id)
    for p in (select_prob, mask_prob, random_prob):
        if not isinstance(p, numbers.Real) or not 0 <= p <= 1:
            raise ValueError(f"a probability must be a number in [0, 1], got {p!r}")
    ids = np.asarray(input_ids).astype(np.int64)
    labels = np.full(ids.shape, -100, dtype=np.int64)
    if select_prob == 0:
        return ids.copy(), labels
    specials = [operator.index(s) for s in special_ids]
    selected = ~np.isin(ids, specials) & (rng.random(ids.shape) < select_prob)
    keep = max(0.0, 1.0 - float(mask_prob) - float(random_prob))
    split = rng.choice(3, size=ids.shape, p=[mask_prob, random_prob, keep])
    ordinary = np.array([t for t in range(vocab_size) if t not in set(specials)])
    corrupted = ids.copy()
    corrupted[selected & (split == 0)] = mask_id
    to_random = selected & (split == 1)
    corrupted[to_random] = rng.choice(ordinary, size=int(to_random.sum()))
    labels[selected] = ids[selected]
    return corrupted, labels


def mlm_loss(logits, labels):
    flat_labels = labels.reshape(-1)
    if not (flat_labels != -100).any():
        return torch.zeros((), dtype=logits.dtype)
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), flat_labels)
