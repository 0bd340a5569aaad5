# question: decoder_layer_param_count
# fails: test_default_width_matches_torch, test_explicit_width_matches_torch, test_lesson_figures
# public: the three LayerNorms
# diagnosis: dec_two_norms
# an encoder layer plus cross-attention, forgetting the decoder's third LayerNorm
def decoder_layer_param_count(d, d_ff=None):
    """Two attentions and the feed-forward network, but only two LayerNorms."""
    d_ff = 4 * d if d_ff is None else d_ff
    return 2 * (4 * d * d + 4 * d) + 2 * d * d_ff + d_ff + d + 4 * d
