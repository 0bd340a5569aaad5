# question: mask_tokens
# fails: test_labels_and_corruption_rules, test_selection_rate, test_replacement_split
# public: special tokens must never be selected
# public: with select_prob=0.0 nothing is selected
# makes: mt_fixed_probabilities, mt_fixed_per_row, mt_selects_specials, mt_random_special
# batch E
# 15%, 80% and a second draw against 0.5 written in (10% random at the defaults, so not
# labelled mt_second_draw), n_pred targets per row, every position a candidate, random
# ids from the whole vocabulary
# split: measure
# source: graykode/nlp-tutorial, 5-2.BERT/BERT-Torch.py (make_batch's MASK LM step, run on each row:
# source: python's random, shuffle and randint are the given rng's random, shuffle and integers
# source: (randint's inclusive upper bound made integers' exclusive one), word_dict['[MASK]'] mask_id,
# source: vocab_size vocab_size; its masked_pos and masked_tokens written into a labels array, -100
# source: elsewhere; its padding to maxlen and max_pred left out)
import numpy as np

max_pred = 20 # max tokens of prediction


def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15, mask_prob=0.8, random_prob=0.1):
    ids = np.asarray(input_ids)
    corrupted = ids.astype(np.int64)
    labels = np.full(ids.shape, -100, dtype=np.int64)
    for row in range(ids.shape[0]) if ids.ndim == 2 else [None]:
        input_ids = corrupted[row] if row is not None else corrupted
        row_labels = labels[row] if row is not None else labels

        # MASK LM
        n_pred =  min(max_pred, max(1, int(round(len(input_ids) * 0.15)))) # 15 % of tokens in one sentence
        cand_maked_pos = [i for i, token in enumerate(input_ids)]
        rng.shuffle(cand_maked_pos)
        masked_tokens, masked_pos = [], []
        for pos in cand_maked_pos[:n_pred]:
            masked_pos.append(pos)
            masked_tokens.append(input_ids[pos])
            if rng.random() < 0.8:  # 80%
                input_ids[pos] = mask_id # make mask
            elif rng.random() < 0.5:  # 10%
                index = rng.integers(0, vocab_size) # random index in vocabulary
                input_ids[pos] = index # replace

        row_labels[masked_pos] = masked_tokens
    return corrupted, labels
