# A stand-in for every stub (tests/assignments/test_stand_ins.py): it must earn format tests only.
import numpy as np
import torch
def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng, select_prob=0.15,
                mask_prob=0.8, random_prob=0.1):
    ids = np.array(input_ids, dtype=np.int64)
    return ids.copy(), np.full(ids.shape, -100, dtype=np.int64)
def mlm_loss(logits, labels):
    return torch.zeros(())
def nsp_pair(tokens_a, tokens_b, cls_id, sep_id):
    return [cls_id, sep_id, sep_id], [0, 0, 1]
