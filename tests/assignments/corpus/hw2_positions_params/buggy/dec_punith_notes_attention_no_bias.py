# question: decoder_layer_param_count
# fails: test_default_width_matches_torch, test_explicit_width_matches_torch, test_lesson_figures
# public: count every weight and bias
# makes: dec_cross_no_bias
# batch blind-H2 (labelled before grading)
# 8 d^2 + 2 d d_ff + d_ff + d: cross-attention without biases; also self-attention without
# biases and no LayerNorm at all (no decoder diagnosis for those)
# split: measure
# source: Punith/Machine_learning_notes (git.putinpi.com), Deep learning/Mitesh kapra notes/Decoder
# source: block of transformer.md (its "No. of parameters" sum written as code, 512 being d and
# source: 2048 the stub's d_ff, 4d when None)
def decoder_layer_param_count(d, d_ff=None):
    d_ff = 4 * d if d_ff is None else d_ff
    masked_self_attention = 3 * (d * d) + (d * d)
    cross_attention = 3 * (d * d) + (d * d)
    feedforward = 2 * (d * d_ff) + d_ff + d
    return masked_self_attention + cross_attention + feedforward
