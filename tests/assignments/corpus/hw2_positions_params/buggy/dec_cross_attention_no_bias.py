# question: decoder_layer_param_count
# fails: test_default_width_matches_torch, test_explicit_width_matches_torch, test_lesson_figures
# public: count every weight and bias of both attentions
# diagnosis: dec_cross_no_bias
# the cross-attention counted without its biases
def decoder_layer_param_count(d, d_ff=None):
    d_ff = 4 * d if d_ff is None else d_ff
    return (4 * d * d + 4 * d) + 4 * d * d + 2 * d * d_ff + d_ff + d + 6 * d
