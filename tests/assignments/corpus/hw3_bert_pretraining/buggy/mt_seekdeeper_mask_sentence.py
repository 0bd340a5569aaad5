# question: mask_tokens
# fails: test_labels_and_corruption_rules, test_input_not_modified, test_selection_rate, test_replacement_split
# public: modified its input_ids
# public: with select_prob=0.0 nothing is selected
# makes: mt_fixed_probabilities, mt_selects_specials, mt_random_special
# batch G2 (labelled before grading)
# also corrupts the caller's array in place (no diagnosis)
# split: measure
# source: Kamichanw/SeekDeeper, bert/data.py (PretrainDataset.mask_sentence: python's random.random and
# source: randint are the given rng's random and integers (randint's inclusive upper bound made
# source: integers' exclusive one), tokenizer.mask_token_id mask_id, len(tokenizer) vocab_size,
# source: tokenizer.pad_token_id, the label its loss ignores where nothing is selected, the contract's
# source: -100; its loop over one sentence runs over the flattened ids, written into as it wrote into
# source: the sentence's list)
import numpy as np


def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15, mask_prob=0.8, random_prob=0.1):
    pad_token_id = -100
    shape = np.shape(input_ids)
    token_ids = np.asarray(input_ids).reshape(-1)
    masked_lm_label = []

    for i, token_id in enumerate(token_ids.tolist()):
        prob = rng.random()
        if prob < 0.15:
            prob /= 0.15

            if prob < 0.8:
                # 80% randomly change token to mask token
                token_ids[i] = mask_id
            elif prob < 0.9:
                # 10% randomly change token to a random token
                token_ids[i] = rng.integers(0, vocab_size - 1 + 1)
            else:
                # 10% stay the same
                pass

            masked_lm_label.append(token_id)

        else:
            masked_lm_label.append(pad_token_id)

    return (np.asarray(token_ids, dtype=np.int64).reshape(shape),
            np.asarray(masked_lm_label, dtype=np.int64).reshape(shape))
