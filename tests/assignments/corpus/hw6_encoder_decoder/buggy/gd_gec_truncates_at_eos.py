# question: greedy_decode
# fails: test_stops_after_eos
# public: eos included
# makes: gd_drops_eos
# source: AleksanderMisztal/gec-with-copying, src/copygec/decoding.py (greedy_decode for a batch of one:
# source: the model becomes step(ids), the argmax of its log-softmax np.argmax of the logits, the ids
# source: returned before the tokenizer's decoding)
import numpy as np


def greedy_decode(step, sos_id, eos_id, max_len):
    ys = [sos_id]
    done = 0
    for i in range(max_len):
        out = step(ys)
        next_word = int(np.argmax(out))
        ys = ys + [next_word]
        done += (next_word == eos_id)
        if bool(done) == 1:
            break
    ids = ys + [eos_id]
    return ids[:ids.index(eos_id)]
