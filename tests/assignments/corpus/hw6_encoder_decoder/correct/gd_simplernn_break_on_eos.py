# source: lmbxmu/SimpleRNN_Project, inference/decode.py (greedy_decode: the model becomes step(ids), the
# source: argmax of its last position np.argmax of the logits, the ids returned before the tokenizer's
# source: decoding)
import numpy as np


def greedy_decode(step, sos_id, eos_id, max_len):
    input_ids = [sos_id]
    for _ in range(max_len):
        logits = step(input_ids)
        next_token = int(np.argmax(logits))
        input_ids = input_ids + [next_token]
        if next_token == eos_id:
            break
    return input_ids
