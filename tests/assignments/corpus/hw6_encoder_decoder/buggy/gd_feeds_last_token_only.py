# question: greedy_decode
# fails: test_argmax_each_step, test_step_called_once_per_token
# public: step must get the ids so far
# diagnosis: gd_last_token_only
import numpy as np
def greedy_decode(step, sos_id, eos_id, max_len):
    ids = [sos_id]
    while len(ids) - 1 < max_len:
        ids.append(int(np.argmax(step([ids[-1]]))))
        if ids[-1] == eos_id:
            break
    return ids
