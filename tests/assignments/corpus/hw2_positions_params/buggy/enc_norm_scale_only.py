# question: encoder_layer_param_count
# fails: test_default_width_matches_torch, test_explicit_width_matches_torch, test_lesson_figures
# public: weight and bias of the attention, the feed-forward network and both LayerNorms
# diagnosis: enc_norm_scale_only
# counts gamma but not beta in each LayerNorm
def encoder_layer_param_count(d, d_ff=None):
    d_ff = 4 * d if d_ff is None else d_ff
    return 4 * d * d + 4 * d + 2 * d * d_ff + d_ff + d + 2 * d
