# question: xavier_uniform
# fails: test_uses_only_rng, test_uniform_over_the_interval
# public: -
# diagnosis: xavier_one_row
import numpy as np
def xavier_uniform(fan_in, fan_out, rng):
    a = np.sqrt(6.0 / (fan_in + fan_out))
    return np.tile(rng.uniform(-a, a, size=fan_out), (fan_in, 1))
