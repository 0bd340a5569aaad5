# question: encoder_layer_param_count
# fails: test_default_width_matches_torch, test_explicit_width_matches_torch, test_lesson_figures
# public: count every weight and bias of the attention
# diagnosis: enc_no_output_projection
# attention as W_q, W_k, W_v only: the output projection W_o and its bias are forgotten
def encoder_layer_param_count(d, d_ff=None):
    d_ff = 4 * d if d_ff is None else d_ff
    return 3 * d * d + 3 * d + 2 * d * d_ff + d_ff + d + 4 * d
