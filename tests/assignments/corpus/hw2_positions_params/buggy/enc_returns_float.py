# question: encoder_layer_param_count
# fails: test_returns_int
# public: should be an int, not float
# diagnosis: enc_float
# the default width written as 4.0 * d makes the count a float
def encoder_layer_param_count(d, d_ff=None):
    d_ff = 4.0 * d if d_ff is None else d_ff
    return 4 * d * d + 4 * d + 2 * d * d_ff + d_ff + d + 4 * d
