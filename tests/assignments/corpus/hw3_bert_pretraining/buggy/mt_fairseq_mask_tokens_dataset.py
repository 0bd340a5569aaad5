# question: mask_tokens
# fails: test_types_and_shapes, test_labels_and_corruption_rules, test_selection_rate, test_replacement_split, test_random_ids_uniform, test_numpy_and_int_arguments
# public: special tokens must never be selected
# public: AssertionError
# makes: mt_fixed_per_row, mt_selects_specials, mt_random_special
# batch G2 (labelled before grading)
# int(select_prob * n + u) targets per row, every position a candidate, random ids from
# the ids after the first len(special_ids); also asserts 0 < select_prob < 1 (no diagnosis)
# split: measure
# source: facebookresearch/fairseq, fairseq/data/mask_tokens_dataset.py (MaskTokensDataset.__getitem__,
# source: run on each row: np.random's rand and choice under its numpy_seed are the given rng's random
# source: and choice; its mask_prob select_prob, random_token_prob random_prob, leave_unmasked_prob
# source: 1 - mask_prob - random_prob, mask_idx mask_id, len(vocab) vocab_size, vocab.nspecial
# source: len(special_ids); the targets it returns with return_masked_tokens=True (the original ids at
# source: the chosen positions, pad_idx, the label its loss ignores, the contract's -100, elsewhere) are
# source: built in the same call; whole-word masking left out)
import numpy as np


def _mask_row(item, rng, vocab_size, nspecial, mask_idx, mask_prob, leave_unmasked_prob,
              random_token_prob, pad_idx):
    assert 0.0 < mask_prob < 1.0
    assert 0.0 <= random_token_prob <= 1.0
    assert 0.0 <= leave_unmasked_prob <= 1.0
    assert random_token_prob + leave_unmasked_prob <= 1.0

    if random_token_prob > 0.0:
        weights = np.ones(vocab_size)
        weights[:nspecial] = 0
        weights = weights / weights.sum()

    sz = len(item)

    # decide elements to mask
    mask = np.full(sz, False)
    num_mask = int(
        # add a random number for probabilistic rounding
        mask_prob * sz + rng.random()
    )
    mask[rng.choice(sz, num_mask, replace=False)] = True

    target = np.full(len(mask), pad_idx)
    target[mask] = item[mask]

    # decide unmasking and random replacement
    rand_or_unmask_prob = random_token_prob + leave_unmasked_prob
    if rand_or_unmask_prob > 0.0:
        rand_or_unmask = mask & (rng.random(sz) < rand_or_unmask_prob)
        if random_token_prob == 0.0:
            unmask = rand_or_unmask
            rand_mask = None
        elif leave_unmasked_prob == 0.0:
            unmask = None
            rand_mask = rand_or_unmask
        else:
            unmask_prob = leave_unmasked_prob / rand_or_unmask_prob
            decision = rng.random(sz) < unmask_prob
            unmask = rand_or_unmask & decision
            rand_mask = rand_or_unmask & (~decision)
    else:
        unmask = rand_mask = None

    if unmask is not None:
        mask = mask ^ unmask

    new_item = np.copy(item)
    new_item[mask] = mask_idx
    if rand_mask is not None:
        num_rand = rand_mask.sum()
        if num_rand > 0:
            new_item[rand_mask] = rng.choice(
                vocab_size,
                num_rand,
                p=weights,
            )
    return new_item, target


def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15, mask_prob=0.8, random_prob=0.1):
    ids = np.asarray(input_ids, dtype=np.int64)
    rows = ids.reshape(-1, ids.shape[-1]) if ids.ndim > 0 else ids.reshape(1, 1)
    corrupted = np.empty_like(rows)
    labels = np.empty_like(rows)
    for r, item in enumerate(rows):
        corrupted[r], labels[r] = _mask_row(
            item, rng, vocab_size, len(special_ids), mask_id, select_prob,
            1.0 - mask_prob - random_prob, random_prob, -100)
    return corrupted.reshape(ids.shape), labels.reshape(ids.shape)
