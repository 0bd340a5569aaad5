# question: greedy_decode
# fails: test_starts_with_sos
# public: must start with sos
# diagnosis: gd_without_sos
import numpy as np
def greedy_decode(step, sos_id, eos_id, max_len):
    ids = [sos_id]
    while len(ids) - 1 < max_len:
        ids.append(int(np.argmax(step(ids))))
        if ids[-1] == eos_id:
            break
    return ids[1:]
