# question: greedy_decode
# fails: test_stops_after_eos
# public: eos included
# diagnosis: gd_drops_eos
import numpy as np
def greedy_decode(step, sos_id, eos_id, max_len):
    """Mistake: stops before appending eos."""
    ids = [sos_id]
    while len(ids) - 1 < max_len:
        nxt = int(np.argmax(step(ids)))
        if nxt == eos_id:
            break
        ids.append(nxt)
    return ids
