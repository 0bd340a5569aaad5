# question: xavier_uniform
# fails: test_shape_dtype_bounds, test_uniform_over_the_interval
# public: a = sqrt(6 / (fan_in + fan_out))
# diagnosis: xavier_fan_in_only
import numpy as np
def xavier_uniform(fan_in, fan_out, rng):
    a = np.sqrt(6.0 / fan_in)
    return rng.uniform(-a, a, size=(fan_in, fan_out))
