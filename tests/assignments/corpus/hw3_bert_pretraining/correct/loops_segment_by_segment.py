# Loops written otherwise (hw3's loop_solution demo): one token at a time with a
# conditional second draw, the loss by logsumexp over the targets only, the pair
# built by appends, one segment at a time.
import numpy as np
import torch


def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15, mask_prob=0.8, random_prob=0.1):
    """One token at a time; the split uses a conditional second draw."""
    specials = set(int(s) for s in special_ids)
    ordinary = [t for t in range(vocab_size) if t not in specials]
    flat = np.asarray(input_ids).reshape(-1)
    corrupted = flat.astype(np.int64)
    labels = np.full(flat.shape, -100, dtype=np.int64)
    for i, token in enumerate(flat.tolist()):
        if token in specials or rng.random() >= select_prob:
            continue
        labels[i] = token
        if rng.random() < mask_prob:
            corrupted[i] = mask_id
        elif mask_prob < 1 and rng.random() < random_prob / (1 - mask_prob):
            corrupted[i] = ordinary[rng.integers(len(ordinary))]
    shape = np.shape(input_ids)
    return corrupted.reshape(shape), labels.reshape(shape)


def mlm_loss(logits, labels):
    """-log softmax at each target, by logsumexp, averaged over the targets."""
    flat = logits.reshape(-1, logits.shape[-1])
    targets = labels.reshape(-1)
    keep = targets != -100
    if not keep.any():
        return flat.sum() * 0.0
    chosen = flat[keep]
    picked = chosen.gather(1, targets[keep].unsqueeze(1)).squeeze(1)
    return (torch.logsumexp(chosen, dim=-1) - picked).mean()


def nsp_pair(tokens_a, tokens_b, cls_id, sep_id):
    """Appends, one segment at a time."""
    input_ids, segment_ids = [], []
    for segment, tokens in enumerate(([cls_id, *tokens_a, sep_id], [*tokens_b, sep_id])):
        for t in tokens:
            input_ids.append(t)
            segment_ids.append(segment)
    return input_ids, segment_ids
