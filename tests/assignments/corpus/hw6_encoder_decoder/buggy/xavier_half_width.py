# question: xavier_uniform
# fails: test_uniform_over_the_interval
# public: -
# diagnosis: xavier_narrow
import numpy as np
def xavier_uniform(fan_in, fan_out, rng):
    a = np.sqrt(3.0 / (fan_in + fan_out))
    return rng.uniform(-a, a, size=(fan_in, fan_out))
