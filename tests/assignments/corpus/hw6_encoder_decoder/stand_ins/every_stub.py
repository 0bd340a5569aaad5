# A stand-in for every stub (tests/assignments/test_stand_ins.py): it must earn format tests only.
# right by chance: sequence_cross_entropy::test_uniform_logits_give_log_v
# log V is the right answer for the uniform logits this lesson figure uses
import numpy as np
def xavier_uniform(fan_in, fan_out, rng):
    return np.zeros((fan_in, fan_out))
def teacher_forcing(continuation, sos_id, eos_id):
    return [sos_id], [eos_id]
def cross_attention(y, h, Wq, Wk, Wv, Wo, heads):
    return np.zeros(np.shape(y)), np.full((heads, len(y), len(h)), 1.0 / len(h))
def greedy_decode(step, sos_id, eos_id, max_len):
    return [sos_id]
def sample_next(logits, temperature, rng, top_k=None):
    if temperature <= 0 or (top_k is not None and top_k < 1):
        raise ValueError("bad arguments")
    return 0
def sequence_cross_entropy(logits, labels):
    return float(np.log(np.shape(logits)[1]))
