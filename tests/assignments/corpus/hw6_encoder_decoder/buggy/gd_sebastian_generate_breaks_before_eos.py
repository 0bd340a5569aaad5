# question: greedy_decode
# fails: test_stops_after_eos
# public: eos included
# makes: gd_drops_eos
# batch G3 (labelled before grading)
# breaks on eos_id before appending it
# split: measure
# source: urmi22/LLM-sebastian, ch05/modified_text_generation.py (generate with temperature=0.0 and
# source: top_k=None, for a batch of one and in NumPy: the model becomes step(ids), idx the list that
# source: starts as [sos_id], max_new_tokens is max_len and no context crop)
import numpy as np


def greedy_decode(step, sos_id, eos_id, max_len):
    idx = [sos_id]
    max_new_tokens = max_len

    # For-loop is the same as before: Get logits, and only focus on last time step
    for _ in range(max_new_tokens):
        logits = step(idx)

        # Otherwise same as before: get idx of the vocab entry with the highest logits value
        idx_next = int(np.argmax(logits))

        if idx_next == eos_id:  # Stop generating early if end-of-sequence token is encountered and eos_id is specified
            break

        # Same as before: append sampled index to the running sequence
        idx = idx + [idx_next]

    return idx
