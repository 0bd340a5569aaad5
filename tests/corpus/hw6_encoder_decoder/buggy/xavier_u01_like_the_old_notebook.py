# question: xavier_uniform
import numpy as np
def xavier_uniform(fan_in, fan_out, rng):
    return rng.random((fan_in, fan_out))
