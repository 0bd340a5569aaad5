# question: mask_tokens
# fails: test_types_and_shapes, test_replacement_split, test_random_ids_uniform
# public: -
# makes: mt_never_random, mt_fixed_split
# batch E
# its random branch is a subset of the [MASK] one, so it never happens
# source: kirilklein/patbert, patbert/features/utils.py (random_mask_arr and combine_masks at 3b1445e:
# source: the rng it made from its seed argument is the given rng, its mask_prob (the selection
# source: probability) select_prob, the special tokens' ids special_ids, vocab['<MASK>'] mask_id, the
# source: vocabulary's ids range(vocab_size); it runs over the flattened ids, as over one sequence)
import numpy as np


def combine_masks(mask1, mask2):
    """Combine two masks into one mask. 1 where either mask is 1, 0 otherwise"""
    # Initialize the output mask to all zeros
    mask3 = np.zeros_like(mask1)
    # Set the mask3 values to 1 where mask2 is 1 and 0 where mask1 is 1
    mask3[mask2] = 1
    mask3[mask1] = 0
    return mask3


def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15, mask_prob=0.8, random_prob=0.1):
    shape = np.shape(input_ids)
    idxs = np.array(input_ids).reshape(-1)
    special_idxs = np.array(list(special_ids))
    # Generate a mask indicating which tokens are special
    special_mask = np.isin(idxs, special_idxs)
    # Generate a random mask indicating which tokens should be masked
    modify_mask = rng.uniform(size=len(idxs)) < select_prob
    # don't mask special tokens
    modify_mask = combine_masks(special_mask, modify_mask)
    # Mask the tokens that should be masked
    masked_idxs = idxs.copy()
    # Generate the labels for each token, -100 is ignored by loss function
    labels = np.ones_like(idxs) * (-100)
    labels[modify_mask] = idxs[modify_mask]
    # Randomly modify the masked tokens in the input
    prob = rng.uniform(size=len(idxs))
    mask_mask = modify_mask & (prob < 0.8)
    masked_idxs[mask_mask] = mask_id
    replace_mask = mask_mask & (prob >= 0.8) & (prob < 0.9)
    masked_idxs[replace_mask] = rng.choice(list(range(vocab_size)),
                                           size=replace_mask.sum())
    return masked_idxs.reshape(shape), labels.reshape(shape)
