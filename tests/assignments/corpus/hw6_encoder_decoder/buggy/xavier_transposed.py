# question: xavier_uniform
# fails: test_shape_dtype_bounds
# public: shape (fan_in, fan_out)
# diagnosis: xavier_transposed
import numpy as np
def xavier_uniform(fan_in, fan_out, rng):
    a = np.sqrt(6.0 / (fan_in + fan_out))
    return rng.uniform(-a, a, size=(fan_out, fan_in))
