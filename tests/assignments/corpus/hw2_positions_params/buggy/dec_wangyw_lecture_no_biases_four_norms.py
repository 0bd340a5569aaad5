# question: decoder_layer_param_count
# fails: test_default_width_matches_torch, test_explicit_width_matches_torch, test_lesson_figures
# public: count every weight and bias
# makes: dec_cross_no_bias
# batch G3 (labelled before grading)
# the encoder's no-bias count plus 4 d^2 and 4d more: cross-attention without biases (and
# no bias elsewhere), four LayerNorms' worth of 8d where three hold 6d (no diagnosis for
# the extra norm)
# split: measure
# source: wangywUST/wangywust.github.io, Course/lecture_4.md (the "Decoder Layer Parameters (per
# source: layer)" sum, encoder layer + additional attention layer, written as code for dmodel = d,
# source: dff = d_ff; the stub's d_ff=None read as 4d)
def decoder_layer_param_count(d, d_ff=None):
    dmodel = d
    dff = 4 * d if d_ff is None else d_ff
    encoder_layer = (3 * (dmodel * dmodel) + dmodel * dmodel
                     + dmodel * dff + dff * dmodel
                     + 2 * 2 * dmodel)
    # encoder layer + additional attention layer
    return encoder_layer + 3 * (dmodel * dmodel) + dmodel * dmodel + 2 * 2 * dmodel  # (for additional normalization)
