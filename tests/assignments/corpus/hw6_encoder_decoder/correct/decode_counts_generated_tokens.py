# greedy_decode that counts the generated tokens in a variable and tests the
# appended id, never the list's first one (so sos_id may equal eos_id);
# argmax through sorted() on the negated logits (ties: the lowest id first).
import numpy as np


def greedy_decode(step, sos_id, eos_id, max_len):
    ids, generated = [sos_id], 0
    while generated < max_len:
        logits = np.asarray(step(ids), dtype=np.float64)
        ids.append(sorted(range(logits.size), key=lambda v: (-logits[v], v))[0])
        generated += 1
        if ids[-1] == eos_id:
            break
    return ids
