# question: encoder_layer_param_count
# fails: test_default_width_matches_torch, test_explicit_width_matches_torch, test_lesson_figures
# public: the attention, the feed-forward network
# diagnosis: enc_8d2
# the source notes' rule of thumb, about 8 d^2 per layer
def encoder_layer_param_count(d, d_ff=None):
    """The source notes' rule of thumb."""
    return 8 * d * d
