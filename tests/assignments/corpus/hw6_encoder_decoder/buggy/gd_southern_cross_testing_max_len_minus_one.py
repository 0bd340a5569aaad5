# question: greedy_decode
# fails: test_argmax_each_step
# public: allows 3 ids after sos
# makes: gd_max_len_counts_sos
# batch blind-H3 (labelled before grading)
# range(max_len - 1), breaks after appending EOS_IDX
# split: measure
# source: southern-cross-ai/Data, English2French/testing.py (greedy_decode: the model's encode/decode and
# source: generator become step(ids), torch.max over the vocabulary np.argmax, start_symbol sos_id,
# source: EOS_IDX eos_id, the tensor of ids a list)
import numpy as np


def greedy_decode(step, sos_id, eos_id, max_len):
    EOS_IDX = eos_id
    start_symbol = sos_id
    ys = [start_symbol]
    for i in range(max_len - 1):
        prob = step(list(ys))
        next_word = int(np.argmax(prob))
        ys = ys + [next_word]
        if next_word == EOS_IDX:
            break
    return ys
