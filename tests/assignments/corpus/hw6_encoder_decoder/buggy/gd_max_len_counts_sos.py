# question: greedy_decode
# fails: test_argmax_each_step
# public: max_len=3 allows 3 ids after sos
# diagnosis: gd_max_len_counts_sos
import numpy as np
def greedy_decode(step, sos_id, eos_id, max_len):
    ids = [sos_id]
    while len(ids) < max_len:  # counts sos among the max_len ids
        ids.append(int(np.argmax(step(ids))))
        if ids[-1] == eos_id:
            break
    return ids
