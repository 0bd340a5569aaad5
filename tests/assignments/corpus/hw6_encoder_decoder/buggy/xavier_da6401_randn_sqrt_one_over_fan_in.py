# question: xavier_uniform
# fails: test_shape_dtype_bounds, test_uses_only_rng, test_uniform_over_the_interval
# public: must lie in [-a, a]
# public: use rng only
# makes: xavier_normal, xavier_not_only_rng
# batch G3 (labelled before grading)
# normal, std 1 / sqrt(fan_in), np.random (no diagnosis for the std)
# split: measure
# source: Ishaan-Maheshwari/da6401_assignment1, my_nn/initializers.py (xavier_init with shape
# source: (fan_in, fan_out); the stub's rng is taken and never read)
import numpy as np


def xavier_init(shape):
    return np.random.randn(*shape) * np.sqrt(1 / shape[0])


def xavier_uniform(fan_in, fan_out, rng):
    return xavier_init((fan_in, fan_out))
