# question: greedy_decode
# fails: test_argmax_each_step, test_stops_after_eos
# public: once per generated token
# public: allows 3 ids after sos
# makes: gd_max_len_counts_sos
# split: measure
# source: Yondijr/NER_Transformer, validation_testing/validation_modules.py (greedy_decode: ys starts
# source: as torch.ones(1, 1), whatever the start symbol; the model becomes step(ids))
import numpy as np


def greedy_decode(step, sos_id, eos_id, max_len):
    ys = [1]
    for i in range(max_len - 1):
        prob = step(ys)
        next_word = int(np.argmax(prob))
        ys = ys + [next_word]
    return ys
