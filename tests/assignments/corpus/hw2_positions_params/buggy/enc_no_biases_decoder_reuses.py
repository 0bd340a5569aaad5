# question: encoder_layer_param_count
# fails: test_default_width_matches_torch, test_explicit_width_matches_torch, test_lesson_figures
# public: count every weight and bias
# diagnosis: enc_no_biases
# the encoder forgets its biases; the decoder is built on the encoder and must not pay for it
def encoder_layer_param_count(d, d_ff=None):
    d_ff = 4 * d if d_ff is None else d_ff
    return 4 * d * d + 2 * d * d_ff + 4 * d


def decoder_layer_param_count(d, d_ff=None):
    return encoder_layer_param_count(d, d_ff) + 4 * d * d + 4 * d + 2 * d
