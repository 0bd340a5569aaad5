# question: greedy_decode
# fails: test_stops_after_eos
# public: -
# diagnosis: gd_stops_on_sos_eos
# Loops while the last id is not eos_id: right when sos_id and eos_id differ,
# but when they are the same token (GPT-2's <|endoftext|>) it returns [sos_id]
# without a single step, although no eos_id was appended.
import numpy as np


def greedy_decode(step, sos_id, eos_id, max_len):
    ids = [sos_id]
    while ids[-1] != eos_id and len(ids) - 1 < max_len:
        ids.append(int(np.argmax(step(ids))))
    return ids
