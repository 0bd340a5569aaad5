# Vectorised, drawing split and random ids only for the selected positions (another
# draw order); the loss through nn.CrossEntropyLoss with nan_to_num for the empty case.
import numpy as np
import torch
from torch import nn


def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15, mask_prob=0.8, random_prob=0.1):
    ids = np.asarray(input_ids)
    labels = np.full(ids.shape, -100, dtype=np.int64)
    corrupted = np.array(ids, dtype=np.int64)
    candidates = np.flatnonzero(~np.isin(ids, special_ids))
    chosen = candidates[rng.random(candidates.size) < select_prob]
    labels.flat[chosen] = ids.flat[chosen]
    u = rng.random(chosen.size)
    corrupted.flat[chosen[u < mask_prob]] = mask_id
    rand_pos = chosen[(u >= mask_prob) & (u < mask_prob + random_prob)]
    ordinary = np.array(sorted(set(range(vocab_size)) - set(special_ids)))
    corrupted.flat[rand_pos] = rng.permutation(ordinary)[rng.integers(0, ordinary.size, rand_pos.size)]
    return corrupted, labels


def mlm_loss(logits, labels):
    loss = nn.CrossEntropyLoss()(logits.flatten(0, -2), labels.flatten())
    return torch.nan_to_num(loss, nan=0.0)


def nsp_pair(tokens_a, tokens_b, cls_id, sep_id):
    a, b = list(tokens_a), list(tokens_b)
    input_ids = [cls_id] + a + [sep_id] + b + [sep_id]
    segment_ids = [0] * (1 + len(a) + 1) + [1] * (len(b) + 1)
    return input_ids, segment_ids
