# question: greedy_decode
# fails: test_argmax_each_step, test_step_called_once_per_token
# public: allows 3 ids after sos
# makes: gd_max_len_counts_sos
# split: measure
# source: hkproj/pytorch-transformer, train.py (greedy_decode: the model's encode/decode/project become
# source: step(ids), torch.max becomes np.argmax, the tensor of ids a list)
import numpy as np


def greedy_decode(step, sos_id, eos_id, max_len):
    decoder_input = [sos_id]
    while True:
        if len(decoder_input) == max_len:
            break
        prob = step(decoder_input)
        next_word = int(np.argmax(prob))
        decoder_input = decoder_input + [next_word]
        if next_word == eos_id:
            break
    return decoder_input
