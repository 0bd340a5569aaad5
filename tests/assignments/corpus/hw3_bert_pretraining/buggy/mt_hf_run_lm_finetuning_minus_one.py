# question: mask_tokens
# fails: test_labels_and_corruption_rules, test_replacement_split
# public: -100 or the original id
# public: every label must be -100
# makes: mt_label_minus_one, mt_random_special, mt_fixed_split
# batch E
# also hard-coded 0.8/0.5 for [MASK] and random (the fixed split)
# split: measure
# source: huggingface/transformers, examples/run_lm_finetuning.py (mask_tokens, late 2019; torch's
# source: bernoulli and randint are the given rng's binomial and integers, args.mlm_probability
# source: select_prob, the tokenizer's special-token mask np.isin(special_ids), its mask token mask_id,
# source: len(tokenizer) vocab_size; it starts from a copy of the ids, as it did from the batch tensor)
import numpy as np


def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15, mask_prob=0.8, random_prob=0.1):
    inputs = np.array(input_ids, dtype=np.int64)
    labels = inputs.copy()
    # We sample a few tokens in each sequence for masked-LM training (with probability args.mlm_probability defaults to 0.15 in Bert/RoBERTa)
    probability_matrix = np.full(labels.shape, select_prob)
    special_tokens_mask = np.isin(labels, special_ids)
    probability_matrix[special_tokens_mask] = 0.0
    masked_indices = rng.binomial(1, probability_matrix).astype(bool)
    labels[~masked_indices] = -1  # We only compute loss on masked tokens

    # 80% of the time, we replace masked input tokens with tokenizer.mask_token ([MASK])
    indices_replaced = rng.binomial(1, np.full(labels.shape, 0.8)).astype(bool) & masked_indices
    inputs[indices_replaced] = mask_id

    # 10% of the time, we replace masked input tokens with random word
    indices_random = rng.binomial(1, np.full(labels.shape, 0.5)).astype(bool) & masked_indices & ~indices_replaced
    random_words = rng.integers(vocab_size, size=labels.shape)
    inputs[indices_random] = random_words[indices_random]

    # The rest of the time (10% of the time) we keep the masked input tokens unchanged
    return inputs, labels
