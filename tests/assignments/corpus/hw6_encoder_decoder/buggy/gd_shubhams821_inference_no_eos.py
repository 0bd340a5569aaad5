# question: greedy_decode
# fails: test_stops_after_eos
# public: once per generated token
# makes: -
# batch blind-H3 (labelled before grading)
# always max_len steps, never stops at eos_id (no declared mistake)
# split: measure
# source: shubhams821/Attention-Is-All-You-Need, inference/inference.py (inference: the model and the
# source: English tokens become step(ids), "SOT" is sos_id, its 10 steps max_len, torch.argmax over
# source: the last position's logits np.argmax, the ids returned as a list, not detokenized)
import numpy as np


def greedy_decode(step, sos_id, eos_id, max_len):
    idx = [sos_id]
    for i in range(max_len):
        logits = step(list(idx))

        # logits: (V,) for the last time step
        next_token = int(np.argmax(logits, axis=-1))

        # concat along sequence dimension
        idx = idx + [next_token]
    return idx
