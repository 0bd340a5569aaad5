# question: xavier_uniform
# fails: test_uses_only_rng
# public: use rng only
# makes: xavier_not_only_rng
# batch F (labelled before grading)
# split: measure
# source: jdebaer/GraphNN, GCN/helpers.py (glorot_init; nin and nout are fan_in and fan_out)
import numpy as np

def glorot_init(nin, nout):
    sd = np.sqrt(6.0 / (nin + nout))
    return np.random.uniform(-sd, sd, size=(nin, nout))


def xavier_uniform(fan_in, fan_out, rng):
    return glorot_init(fan_in, fan_out)
