# question: xavier_uniform
# fails: test_uses_only_rng
# public: same seed must give the same weights
# makes: xavier_not_only_rng
# batch blind-H3 (labelled before grading)
# split: measure
# source: AkiraRy/SimpleAIAlgorithms, multilayer/initialization.py (get_fans and glorot_uniform on the
# source: shape (fan_in, fan_out); the stub's rng is taken and never read)
import numpy as np


def get_fans(shape):
    fan_in = shape[0] if len(shape) == 2 else np.prod(shape[1:])
    fan_out = shape[1] if len(shape) == 2 else shape[0]
    return fan_in, fan_out


def glorot_uniform(shape):
    fan_in, fan_out = get_fans(shape)
    s = np.sqrt(6. / (fan_in + fan_out))
    return np.random.uniform(low=-s, high=s, size=shape)


def xavier_uniform(fan_in, fan_out, rng):
    return glorot_uniform((fan_in, fan_out))
