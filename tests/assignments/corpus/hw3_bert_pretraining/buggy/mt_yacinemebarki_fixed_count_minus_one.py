# question: mask_tokens
# fails: test_types_and_shapes, test_labels_and_corruption_rules, test_selection_rate, test_replacement_split, test_selection_is_independent
# public: -100 or the original id
# public: with select_prob=0.0 nothing is selected
# makes: mt_label_minus_one, mt_fixed_per_row, mt_fixed_probabilities, mt_selects_specials, mt_random_special
# batch E
# int(0.15 * n) positions per row (choice without replacement), specials among them, -1
# where nothing is selected, 80/10/10 written in, random ids from the whole vocabulary
# split: measure
# source: yacinemebarki/model_from_scratch, bert/mln.py (mask, run on each row: numpy's global
# source: random.choice and random.rand are the given rng's choice and random, mask_vec mask_id, vocab the
# source: ids range(vocab_size); its target array is the labels)
import numpy as np


def mask(x,vocab,mask_vec,rng):

    n_token=len(x)
    maskidx=rng.choice(n_token,size=int(0.15*n_token),replace=False)
    masked=x.copy()
    target=np.full_like(x, -1)


    for i in maskidx:
        prob=rng.random()
        target[i]=x[i]
        if prob<0.8:
            masked[i]=mask_vec
        elif prob<0.9:
            pass
        else:
            masked[i]=rng.choice(vocab)
    return masked,target


def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15, mask_prob=0.8, random_prob=0.1):
    ids = np.asarray(input_ids)
    vocab = list(range(vocab_size))
    if ids.ndim != 2:
        masked, target = mask(ids.reshape(-1), vocab, mask_id, rng)
        return masked.reshape(ids.shape), target.reshape(ids.shape)
    corrupted, labels = ids.copy(), np.full_like(ids, -1)
    for row in range(ids.shape[0]):
        corrupted[row], labels[row] = mask(ids[row], vocab, mask_id, rng)
    return corrupted, labels
