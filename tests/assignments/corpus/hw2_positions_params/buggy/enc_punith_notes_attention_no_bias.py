# question: encoder_layer_param_count
# fails: test_default_width_matches_torch, test_explicit_width_matches_torch, test_lesson_figures
# public: count every weight and bias
# makes: enc_no_norms
# batch blind-H2 (labelled before grading)
# 4 d^2 + 2 d d_ff + d_ff + d: no LayerNorm, and the attention's four biases left out while
# both feed-forward biases are kept (not enc_no_biases' "the biases are left out")
# split: measure
# source: Punith/Machine_learning_notes (git.putinpi.com), Deep learning/Mitesh kapra notes/Encoder
# source: block of transformer.md (the "total number of parameters" sum W_Q, W_K, W_V, W_O, W_1, b_1,
# source: W_2, b_2 written as code; its 4*d is the stub's d_ff, 4d when None)
def encoder_layer_param_count(d, d_ff=None):
    d_ff = 4 * d if d_ff is None else d_ff
    w_qkv = 3 * (d * d)          # W_Q, W_K, W_V : 3 d^2
    w_o = d * d                  # W_O : d^2
    w1_b1 = d * d_ff + d_ff      # W_1, b_1
    w2_b2 = d_ff * d + d         # W_2, b_2
    return w_qkv + w_o + w1_b1 + w2_b2
