"""Reference solution of hw3_bert_pretraining, checked against torch's own
cross-entropy in the hidden tests."""
from __future__ import annotations

import numpy as np
import torch.nn.functional as F

IGNORE_INDEX = -100  # F.cross_entropy's default ignore_index: positions that are not targets


def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15,
                mask_prob=0.8,
                random_prob=0.1):
    ids = np.asarray(input_ids)
    special = np.isin(ids, np.asarray(list(special_ids), dtype=np.int64))
    # 1) prediction targets: each ordinary position independently, with select_prob
    selected = (rng.random(ids.shape) < select_prob) & ~special
    # 2) one uniform number per position splits the targets into [MASK] / random / unchanged
    u = rng.random(ids.shape)
    to_mask = selected & (u < mask_prob)
    to_random = selected & (u >= mask_prob) & (u < mask_prob + random_prob)
    # 3) random replacements are uniform over the ordinary (non-special) ids
    ordinary = np.setdiff1d(np.arange(vocab_size), np.asarray(list(special_ids), dtype=np.int64))
    random_ids = ordinary[rng.integers(0, len(ordinary), size=ids.shape)]
    corrupted = ids.astype(np.int64)  # a copy: input_ids is never modified
    corrupted[to_mask] = mask_id
    corrupted[to_random] = random_ids[to_random]
    labels = np.where(selected, ids.astype(np.int64), IGNORE_INDEX)  # -100 wraps in a uint dtype
    return corrupted, labels


def mlm_loss(logits, labels):
    vocab = logits.shape[-1]
    flat_logits, flat_labels = logits.reshape(-1, vocab), labels.reshape(-1)  # (N, V), (N,)
    total = F.cross_entropy(flat_logits, flat_labels, ignore_index=IGNORE_INDEX, reduction="sum")
    count = (flat_labels != IGNORE_INDEX).sum()
    return total / count.clamp(min=1)  # 0.0, not 0/0 = nan, when nothing is selected


def nsp_pair(tokens_a, tokens_b, cls_id, sep_id):
    input_ids = [cls_id, *tokens_a, sep_id, *tokens_b, sep_id]
    segment_ids = [0] * (len(tokens_a) + 2) + [1] * (len(tokens_b) + 1)
    return input_ids, segment_ids
