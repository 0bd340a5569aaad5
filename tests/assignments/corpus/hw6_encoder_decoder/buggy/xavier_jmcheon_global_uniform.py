# question: xavier_uniform
# fails: test_uses_only_rng
# public: use rng only
# makes: xavier_not_only_rng
# source: jmcheon/multilayer_perceptron, initializers.py (glorot_uniform)
import numpy as np


def xavier_uniform(fan_in, fan_out, rng):
    limit = np.sqrt(6 / (fan_in + fan_out))
    return np.random.uniform(-limit, limit, (fan_in, fan_out))
