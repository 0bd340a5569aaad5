# question: decoder_layer_param_count
# fails: test_default_width_matches_torch, test_explicit_width_matches_torch, test_lesson_figures
# public: count every weight and bias of both attentions
# diagnosis: dec_no_cross
# counts a decoder layer like an encoder layer: no cross-attention, two norms
def decoder_layer_param_count(d, d_ff=None):
    d_ff = 4 * d if d_ff is None else d_ff
    return 4 * d * d + 4 * d + 2 * d * d_ff + d_ff + d + 4 * d
