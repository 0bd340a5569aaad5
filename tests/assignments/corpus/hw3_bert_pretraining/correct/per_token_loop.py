# A Python loop over every token with conditional draws; loss by hand with logsumexp.
import numpy as np
import torch


def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15, mask_prob=0.8, random_prob=0.1):
    specials = set(int(s) for s in special_ids)
    ordinary = [t for t in range(vocab_size) if t not in specials]
    flat = np.asarray(input_ids).reshape(-1)
    corrupted = np.empty(flat.size, dtype=np.int64)
    labels = np.empty(flat.size, dtype=np.int64)
    for i in range(flat.size):
        token = int(flat[i])
        corrupted[i], labels[i] = token, -100
        if token in specials or not rng.random() < select_prob:
            continue
        labels[i] = token
        if rng.random() < mask_prob:
            corrupted[i] = mask_id
        elif mask_prob < 1 and rng.random() < random_prob / (1 - mask_prob):
            corrupted[i] = ordinary[int(rng.integers(len(ordinary)))]
    shape = np.shape(input_ids)
    return corrupted.reshape(shape), labels.reshape(shape)


def mlm_loss(logits, labels):
    logits = logits.reshape(-1, logits.shape[-1])
    labels = labels.reshape(-1)
    total = logits.new_zeros(())
    count = 0
    for i in range(labels.shape[0]):
        if labels[i] != -100:
            total = total + torch.logsumexp(logits[i], 0) - logits[i, labels[i]]
            count += 1
    return total / max(count, 1)


def nsp_pair(tokens_a, tokens_b, cls_id, sep_id):
    input_ids, segment_ids = [cls_id], [0]
    for t in tokens_a:
        input_ids.append(t)
        segment_ids.append(0)
    input_ids.append(sep_id)
    segment_ids.append(0)
    for t in tokens_b:
        input_ids.append(t)
        segment_ids.append(1)
    input_ids.append(sep_id)
    segment_ids.append(1)
    return input_ids, segment_ids
