# question: xavier_uniform
# fails: test_uses_only_rng
# public: use rng only
# makes: xavier_not_only_rng
# source: Gleonett/multilayer-perceptron, nn/init/xavier.py (xavier_init: torch's global generator
# source: written as numpy's, the zero bias left out)
import numpy as np


def xavier_uniform(fan_in, fan_out, rng):
    dsp = np.sqrt(6 / (fan_in + fan_out))
    W = np.random.uniform(-dsp, dsp, size=(fan_in, fan_out))
    return W
