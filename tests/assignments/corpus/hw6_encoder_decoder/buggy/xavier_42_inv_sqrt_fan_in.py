# question: xavier_uniform
# fails: test_shape_dtype_bounds, test_uses_only_rng, test_uniform_over_the_interval
# public: not (5, 3)
# public: use rng only
# makes: xavier_transposed, xavier_not_only_rng
# and a bound of 1 / sqrt(fan_in) (no diagnosis)
# split: measure
# source: JBarmentlo/Multi-Layer-Perceptron-42, srcs/weights_init.py (xavier_init; the biases it also
# source: drew left out)
from math import sqrt

from numpy.random import rand


def xavier_uniform(fan_in, fan_out, rng):
    invsqrtn = 1.0 / sqrt(fan_in)
    lower = -invsqrtn
    upper = invsqrtn
    weights = rand(fan_out, fan_in)
    weights = weights * (upper - lower) + lower
    return weights
