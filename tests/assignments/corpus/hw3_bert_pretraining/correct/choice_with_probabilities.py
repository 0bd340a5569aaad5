# Vectorised, with rng.binomial for the selection and rng.choice(p=...) for the split.
import numpy as np
import torch
import torch.nn.functional as F


def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15, mask_prob=0.8, random_prob=0.1):
    ids = np.array(input_ids, dtype=np.int64)
    ordinary_mask = ~np.isin(ids, list(special_ids))
    selected = (rng.binomial(1, select_prob, size=ids.shape) == 1) & ordinary_mask
    keep_prob = max(0.0, 1.0 - mask_prob - random_prob)
    p = np.array([mask_prob, random_prob, keep_prob])
    action = rng.choice(3, size=ids.shape, p=p / p.sum())
    pool = np.array([t for t in range(vocab_size) if t not in set(special_ids)])
    corrupted = ids.copy()
    corrupted[selected & (action == 0)] = mask_id
    to_random = selected & (action == 1)
    corrupted[to_random] = rng.choice(pool, size=int(to_random.sum()))
    labels = np.full(ids.shape, -100, dtype=np.int64)
    labels[selected] = ids[selected]
    return corrupted, labels


def mlm_loss(logits, labels):
    keep = labels != -100
    if not keep.any():
        return logits.sum() * 0.0
    return F.cross_entropy(logits[keep], labels[keep])


def nsp_pair(tokens_a, tokens_b, cls_id, sep_id):
    ids = [cls_id] + list(tokens_a) + [sep_id] + list(tokens_b) + [sep_id]
    seg = [0 if i <= len(tokens_a) + 1 else 1 for i in range(len(ids))]
    return ids, seg
