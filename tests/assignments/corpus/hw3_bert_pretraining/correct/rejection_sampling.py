# Random ids by rejection (draw from [0, vocab) until not special); nll_loss on log_softmax.
import numpy as np
import torch
import torch.nn.functional as F


def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15, mask_prob=0.8, random_prob=0.1):
    specials = np.asarray(list(special_ids))
    corrupted = np.asarray(input_ids).astype(np.int64, copy=True)
    labels = np.full_like(corrupted, -100)
    for index in np.ndindex(corrupted.shape):
        token = corrupted[index]
        if token in specials:
            continue
        if rng.uniform() >= select_prob:
            continue
        labels[index] = token
        u = rng.uniform()
        if u < mask_prob:
            corrupted[index] = mask_id
        elif u < mask_prob + random_prob:
            draw = rng.integers(vocab_size)
            while draw in specials:
                draw = rng.integers(vocab_size)
            corrupted[index] = draw
    return corrupted, labels


def mlm_loss(logits, labels):
    logp = F.log_softmax(logits.reshape(-1, logits.shape[-1]), dim=-1)
    flat = labels.reshape(-1)
    keep = flat != -100
    picked = logp[keep].gather(1, flat[keep].unsqueeze(1)).squeeze(1)
    return -picked.sum() / keep.sum().clamp(min=1)


def nsp_pair(tokens_a, tokens_b, cls_id, sep_id):
    first = [cls_id, *tokens_a, sep_id]
    second = [*tokens_b, sep_id]
    return first + second, [0 for _ in first] + [1 for _ in second]
