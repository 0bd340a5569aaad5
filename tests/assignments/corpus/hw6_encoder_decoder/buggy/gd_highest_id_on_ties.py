# question: greedy_decode
# fails: test_ties_pick_lowest_id
# public: -
# diagnosis: gd_highest_on_ties
import numpy as np
def greedy_decode(step, sos_id, eos_id, max_len):
    ids = [sos_id]
    while len(ids) - 1 < max_len:
        logits = np.asarray(step(ids))
        ids.append(int(len(logits) - 1 - np.argmax(logits[::-1])))
        if ids[-1] == eos_id:
            break
    return ids
