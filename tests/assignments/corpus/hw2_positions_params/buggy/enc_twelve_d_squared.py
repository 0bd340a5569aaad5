# question: encoder_layer_param_count
# fails: test_default_width_matches_torch, test_explicit_width_matches_torch, test_lesson_figures
# public: the attention, the feed-forward network
# diagnosis: enc_12d2
# 12 d^2: the weight matrices at d_ff = 4d, without biases, norms or a d_ff of its own
def encoder_layer_param_count(d, d_ff=None):
    return 12 * d * d
