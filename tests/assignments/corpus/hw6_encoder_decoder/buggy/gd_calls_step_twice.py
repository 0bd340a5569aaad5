# question: greedy_decode
# fails: test_step_called_once_per_token
# public: once per generated token
# diagnosis: gd_calls_step_twice
import numpy as np
def greedy_decode(step, sos_id, eos_id, max_len):
    ids = [sos_id]
    while len(ids) - 1 < max_len:
        ids.append(int(np.argmax(step(ids))))
        if int(np.argmax(step(ids[:-1]))) == eos_id:  # asks the model a second time
            break
    return ids
