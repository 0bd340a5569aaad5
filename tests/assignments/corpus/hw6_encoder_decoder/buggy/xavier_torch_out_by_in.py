# question: xavier_uniform
# fails: test_shape_dtype_bounds, test_uses_only_rng
# public: not (5, 3)
# public: use rng only
# makes: xavier_transposed, xavier_not_only_rng
# split: measure
# source: Gleonett/multilayer-perceptron, nn/init/xavier.py (xavier: torch's global generator written
# source: as numpy's, the bias it also drew left out)
import numpy as np


def xavier_uniform(fan_in, fan_out, rng):
    dsp = np.sqrt(6 / (fan_in + fan_out))
    W = np.random.uniform(-dsp, dsp, size=(fan_out, fan_in))
    return W
