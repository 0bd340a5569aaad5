# question: xavier_uniform
# fails: test_shape_dtype_bounds, test_uniform_over_the_interval
# public: every weight must lie in [-a, a]
# diagnosis: xavier_normal
import numpy as np
def xavier_uniform(fan_in, fan_out, rng):
    return rng.normal(0.0, np.sqrt(2.0 / (fan_in + fan_out)), size=(fan_in, fan_out))
