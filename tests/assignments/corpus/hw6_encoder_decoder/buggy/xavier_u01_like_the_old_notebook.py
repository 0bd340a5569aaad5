# question: xavier_uniform
# fails: test_shape_dtype_bounds, test_uniform_over_the_interval
# public: every weight must lie in [-a, a]
# diagnosis: xavier_u01
import numpy as np
def xavier_uniform(fan_in, fan_out, rng):
    """Mistake: U(0, 1) weights, all positive."""
    return rng.random((fan_in, fan_out))
