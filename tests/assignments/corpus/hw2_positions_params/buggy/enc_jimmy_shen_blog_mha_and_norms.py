# question: encoder_layer_param_count
# fails: test_default_width_matches_torch, test_explicit_width_matches_torch, test_lesson_figures
# public: count every weight and bias
# makes: -
# batch blind-H2 (labelled before grading)
# MHA with biases and two LayerNorms, 4 d^2 + 8d: the feed-forward network is left out (no
# diagnosis)
# split: measure
# source: jimmy-shen.medium.com, "Transformer number of parameters estimation" (its Encoder:
# source: N*(MHA + 2*layer Norm), MHA with bias 4*(d_model*d_model + d_model) and Layer Norm
# source: 2*d_model, written as code for one layer, d_model = d)
def encoder_layer_param_count(d, d_ff=None):
    d_model = d
    mha = 4 * (d_model * d_model + d_model)
    layer_norm = 2 * d_model
    # Feed Forward: 2*d_model*d_ff + d_model + d_ff (not in the block's sum)
    N = 1
    return N * (mha + 2 * layer_norm)
