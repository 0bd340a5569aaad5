# question: encoder_layer_param_count
# fails: test_default_width_matches_torch, test_explicit_width_matches_torch, test_lesson_figures
# public: count every weight and bias
# makes: enc_no_biases
# batch G3 (labelled before grading)
# 4 d^2 + 2 d d_ff + 4d: the LayerNorms but no bias anywhere
# split: measure
# source: wangywUST/wangywust.github.io, Course/lecture_4.md (the "Encoder Layer Parameters (per
# source: layer)" sum written as code for dmodel = d, dff = d_ff; the stub's d_ff=None read as 4d)
def encoder_layer_param_count(d, d_ff=None):
    dmodel = d
    dff = 4 * d if d_ff is None else d_ff
    # Multi-head attention: query, key, value projections and output projection
    attention = 3 * (dmodel * dmodel) + dmodel * dmodel
    # Feed-forward network: first and second layer
    feed_forward = dmodel * dff + dff * dmodel
    # Layer normalization (2 sets): scale and bias
    layer_norm = 2 * 2 * dmodel
    return attention + feed_forward + layer_norm
