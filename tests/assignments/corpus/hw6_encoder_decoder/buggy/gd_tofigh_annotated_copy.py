# question: greedy_decode
# fails: test_argmax_each_step, test_stops_after_eos
# public: once per generated token
# public: allows 3 ids after sos
# makes: gd_max_len_counts_sos
# the annotated transformer's loop again: max_len - 1 steps, no stop at eos
# split: measure
# source: tofigh-/LSTM, data_accessor/model/attention_transformer/greedy_decoder.py (the annotated
# source: transformer's greedy_decode: the model's encode/decode/generator become step(ids), torch.max
# source: becomes np.argmax)
import numpy as np


def greedy_decode(step, sos_id, eos_id, max_len):
    ys = [sos_id]
    for i in range(max_len - 1):
        prob = step(ys)
        next_word = int(np.argmax(prob))
        ys = ys + [next_word]
    return ys
