# question: mask_tokens
# fails: test_labels_and_corruption_rules, test_replacement_split
# public: -
# makes: mt_random_special
# batch E
# also independent draws for random and unchanged, so the [MASK] share is
# (1 - random_prob) * (mask_prob + random_prob) (no diagnosis)
# source: labmlai/annotated_deep_learning_paper_implementations, labml_nn/transformers/mlm/__init__.py
# source: (MLM.__call__: torch.rand and randint are the given rng's random and integers; its
# source: parameters masking_prob = select_prob, randomize_prob = random_prob, no_change_prob =
# source: 1 - mask_prob - random_prob, no_mask_tokens = special_ids, mask_token = mask_id, n_tokens =
# source: vocab_size, and padding_token, the label its loss ignores, the contract's -100; it works on
# source: a copy of the ids, as it did on the batch tensor)
import numpy as np


def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15, mask_prob=0.8, random_prob=0.1):
    padding_token = -100
    masking_prob, randomize_prob = select_prob, random_prob
    no_change_prob = 1.0 - mask_prob - random_prob
    no_mask_tokens = list(special_ids) + [padding_token, mask_id]
    x = np.array(input_ids, dtype=np.int64)

    # Mask `masking_prob` of tokens
    full_mask = rng.random(x.shape) < masking_prob
    # Unmask `no_mask_tokens`
    for t in no_mask_tokens:
        full_mask &= x != t

    # A mask for tokens to be replaced with original tokens
    unchanged = full_mask & (rng.random(x.shape) < no_change_prob)
    # A mask for tokens to be replaced with a random token
    random_token_mask = full_mask & (rng.random(x.shape) < randomize_prob)
    # Indexes of tokens to be replaced with random tokens
    random_token_idx = np.nonzero(random_token_mask)
    # Random tokens for each of the locations
    random_tokens = rng.integers(0, vocab_size, (len(random_token_idx[0]),))
    # The final set of tokens that are going to be replaced by `[MASK]`
    mask = full_mask & ~random_token_mask & ~unchanged

    # Make a clone of the input for the labels
    y = x.copy()

    # Replace with `[MASK]` tokens
    x[mask] = mask_id
    # Assign random tokens
    x[random_token_idx] = random_tokens

    # Assign token `[PAD]` to all the other locations in the labels.
    y[~full_mask] = padding_token

    return x, y
