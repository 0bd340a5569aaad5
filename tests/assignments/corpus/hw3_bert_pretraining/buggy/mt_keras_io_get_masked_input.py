# question: mask_tokens
# fails: test_types_and_shapes, test_labels_and_corruption_rules, test_selection_rate, test_replacement_split
# public: ValueError: low >= high
# makes: mt_label_minus_one, mt_fixed_probabilities, mt_specials_are_first_ids, mt_random_special
# batch G2 (labelled before grading)
# ids <= 2 taken as the specials, random ids from [3, mask_id), 15% / 90% / 1/9 written in
# (80/10/10 overall), -1 where nothing is selected
# split: measure
# source: keras-team/keras-io, examples/nlp/masked_language_modeling.py (get_masked_input_and_labels:
# source: numpy's global np.random.rand and randint are the given rng's random and integers, its
# source: mask_token_id mask_id; the stub returns the corrupted ids and the labels it builds, not the
# source: copy of the ids and the sample weights it hands to fit)
import numpy as np


def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15, mask_prob=0.8, random_prob=0.1):
    encoded_texts = np.asarray(input_ids)
    mask_token_id = mask_id
    # 15% BERT masking
    inp_mask = rng.random(encoded_texts.shape) < 0.15
    # Do not mask special tokens
    inp_mask[encoded_texts <= 2] = False
    # Set targets to -1 by default, it means ignore
    labels = -1 * np.ones(encoded_texts.shape, dtype=int)
    # Set labels for masked tokens
    labels[inp_mask] = encoded_texts[inp_mask]

    # Prepare input
    encoded_texts_masked = np.copy(encoded_texts)
    # Set input to [MASK] which is the last token for the 90% of tokens
    # This means leaving 10% unchanged
    inp_mask_2mask = inp_mask & (rng.random(encoded_texts.shape) < 0.90)
    encoded_texts_masked[inp_mask_2mask] = (
        mask_token_id  # mask token is the last in the dict
    )

    # Set 10% to a random token
    inp_mask_2random = inp_mask_2mask & (rng.random(encoded_texts.shape) < 1 / 9)
    encoded_texts_masked[inp_mask_2random] = rng.integers(
        3, mask_token_id, inp_mask_2random.sum()
    )
    return encoded_texts_masked, labels
