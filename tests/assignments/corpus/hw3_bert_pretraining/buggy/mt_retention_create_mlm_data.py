# question: mask_tokens
# fails: test_labels_and_corruption_rules, test_replacement_split, test_random_ids_uniform
# public: special tokens must never be selected
# makes: mt_never_random, mt_never_kept, mt_selects_specials
# batch G2 (labelled before grading)
# every target becomes [MASK]; only mask_id itself is never selected
# split: measure
# source: Rtosshy/Retention-vs-Attention, create_mlm_data.py (create_mlm_data, its first version with a
# source: vocab_size argument: torch.rand is the given rng's random, mask_token_id mask_id, mask_prob
# source: select_prob; torch's clone is np.copy)
import numpy as np


def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15, mask_prob=0.8, random_prob=0.1):
    input_ids = np.asarray(input_ids, dtype=np.int64)
    mask_token_id = mask_id

    mask = (rng.random(input_ids.shape) < select_prob) & (input_ids != mask_token_id)

    masked_input_ids = np.copy(input_ids)
    masked_input_ids[mask] = mask_token_id

    mlm_labels = np.copy(input_ids)
    mlm_labels[~mask] = -100

    return masked_input_ids, mlm_labels
