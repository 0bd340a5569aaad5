# question: mask_tokens
# fails: test_labels_and_corruption_rules, test_replacement_split, test_random_ids_uniform
# public: -
# makes: mt_random_special, mt_fixed_split
# batch E
# random ids from the ids after the first len(special_ids)
# source: kirilklein/patbert, patbert/features/utils.py (random_mask at 3b1445e: the rng it made
# source: from its seed argument is the given rng, its mask_prob (the selection probability)
# source: select_prob, the special tokens' ids special_ids, vocab['<MASK>'] mask_id, the vocabulary's
# source: ids range(vocab_size); its loop over one sequence runs over the flattened ids)
import numpy as np


def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15, mask_prob=0.8, random_prob=0.1):
    idxs = np.asarray(input_ids).reshape(-1).tolist()
    vocab_values = list(range(vocab_size))
    masked_idxs = idxs.copy()
    special_idxs = list(special_ids)
    labels = len(idxs) * [-100]  # -100 is ignored by loss function

    for i, idx in enumerate(idxs):
        if idx in special_idxs:
            continue
        prob = rng.uniform()
        if prob < select_prob:
            prob = rng.uniform()
            # 80% of the time replace with [MASK]
            if prob < 0.8:
                masked_idxs[i] = mask_id
            # 10% change token to random token
            elif prob < 0.9:
                masked_idxs[i] = rng.choice(vocab_values[len(special_idxs):])  # first tokens are special!
            # 10% keep original
            labels[i] = idx
    shape = np.shape(input_ids)
    return (np.array(masked_idxs, dtype=np.int64).reshape(shape),
            np.array(labels, dtype=np.int64).reshape(shape))
