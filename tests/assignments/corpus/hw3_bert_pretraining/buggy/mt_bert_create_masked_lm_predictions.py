# question: mask_tokens
# fails: test_labels_and_corruption_rules, test_selection_rate, test_selection_is_independent
# public: with select_prob=0.0 nothing is selected
# diagnosis: mt_random_special, mt_fixed_per_row
# google-research/bert's create_masked_lm_predictions, ported to arrays and the contract's
# arguments: per row, the candidates (non-special positions) are shuffled and the first
# max(1, round(select_prob * candidates)) are selected (a fixed count per row, at least one,
# not independent selection); a random replacement is any vocabulary id, special ids
# included (its vocab_words holds [CLS], [SEP], [MASK]).
# Three properties break: random ids may be special (rules), select_prob 0 still selects one
# per row (rate), the count per row is fixed (independence).
import numpy as np


def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15, mask_prob=0.8, random_prob=0.1):
    tokens = np.asarray(input_ids)
    rows = tokens.reshape(-1, tokens.shape[-1]) if tokens.ndim else tokens.reshape(1, 1)
    output = rows.astype(np.int64)
    labels = np.full(rows.shape, -100, dtype=np.int64)
    keep_share = (1.0 - mask_prob - random_prob) / (1.0 - mask_prob) if mask_prob < 1 else 0.0
    for r in range(rows.shape[0]):
        cand_indexes = [i for i in range(rows.shape[1]) if rows[r, i] not in special_ids]
        rng.shuffle(cand_indexes)
        num_to_predict = max(1, int(round(len(cand_indexes) * select_prob)))
        for index in cand_indexes[:num_to_predict]:
            if rng.random() < mask_prob:
                masked_token = mask_id
            elif rng.random() < keep_share:
                masked_token = rows[r, index]
            else:
                masked_token = rng.integers(0, vocab_size)
            output[r, index] = masked_token
            labels[r, index] = rows[r, index]
    return output.reshape(tokens.shape), labels.reshape(tokens.shape)
