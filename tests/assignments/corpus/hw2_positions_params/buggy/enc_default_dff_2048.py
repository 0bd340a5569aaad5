# question: encoder_layer_param_count
# fails: test_default_width_matches_torch
# public: d_ff=None means 4d
# diagnosis: enc_default_2048
# takes torch's default dim_feedforward=2048 instead of 4 d
def encoder_layer_param_count(d, d_ff=None):
    d_ff = 2048 if d_ff is None else d_ff
    return 4 * d * d + 4 * d + 2 * d * d_ff + d_ff + d + 4 * d
