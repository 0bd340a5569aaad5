# question: encoder_layer_param_count
# fails: test_default_width_matches_torch, test_explicit_width_matches_torch, test_lesson_figures
# public: both LayerNorms
# diagnosis: enc_no_norms
# forgets the two LayerNorms
def encoder_layer_param_count(d, d_ff=None):
    """Attention and feed-forward with biases, but no LayerNorms."""
    d_ff = 4 * d if d_ff is None else d_ff
    return 4 * d * d + 4 * d + 2 * d * d_ff + d_ff + d
