# question: xavier_uniform
# fails: test_uses_only_rng
# public: use rng only
# diagnosis: xavier_not_only_rng
import numpy as np
def xavier_uniform(fan_in, fan_out, rng):
    a = np.sqrt(6.0 / (fan_in + fan_out))
    return np.random.uniform(-a, a, size=(fan_in, fan_out))
