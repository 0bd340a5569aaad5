# question: mask_tokens
# fails: test_labels_and_corruption_rules, test_selection_rate, test_replacement_split, test_selection_is_independent
# public: -100 or the original id
# public: with select_prob=0.0 nothing is selected
# makes: mt_fixed_probabilities, mt_selects_specials, mt_random_special
# batch E
# also label 0, not -100, where nothing is selected (no diagnosis)
# split: measure
# source: codertimo/BERT-pytorch, bert_pytorch/dataset/dataset.py (BERTDataset.random_word: python's
# source: random is the given rng, vocab.mask_index mask_id, len(vocab) vocab_size; its loop over one
# source: sentence's tokens runs over the flattened ids, which are already ids, not words)
import numpy as np


def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15, mask_prob=0.8, random_prob=0.1):
    tokens = np.array(input_ids, dtype=np.int64).reshape(-1)
    output_label = []

    for i, token in enumerate(tokens.tolist()):
        prob = rng.random()
        if prob < 0.15:
            prob /= 0.15

            # 80% randomly change token to mask token
            if prob < 0.8:
                tokens[i] = mask_id

            # 10% randomly change token to random token
            elif prob < 0.9:
                tokens[i] = rng.integers(vocab_size)

            # 10% randomly change token to current token
            else:
                tokens[i] = token

            output_label.append(token)

        else:
            tokens[i] = token
            output_label.append(0)

    shape = np.shape(input_ids)
    return tokens.reshape(shape), np.array(output_label, dtype=np.int64).reshape(shape)
