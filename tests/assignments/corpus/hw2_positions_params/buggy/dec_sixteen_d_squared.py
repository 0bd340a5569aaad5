# question: decoder_layer_param_count
# fails: test_default_width_matches_torch, test_explicit_width_matches_torch, test_lesson_figures
# public: count every weight and bias of both attentions
# diagnosis: dec_16d2
# 16 d^2: the weight matrices at d_ff = 4d only
def decoder_layer_param_count(d, d_ff=None):
    return 16 * d * d
