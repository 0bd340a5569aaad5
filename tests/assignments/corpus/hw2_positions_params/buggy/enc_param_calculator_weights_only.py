# question: encoder_layer_param_count
# fails: test_default_width_matches_torch, test_explicit_width_matches_torch, test_lesson_figures
# public: count every weight and bias
# makes: enc_no_biases, enc_no_norms, enc_12d2
# 4 d^2 + 2 d d_ff: 12 d^2 at d_ff = 4d, neither biases nor LayerNorms
# split: measure
# source: FernandoRFranca/pytorch_transformer_template, param_calculator.py (estimate_parameters'
# source: encoder_parameters for num_layers = 1, d_model = d; the stub's d_ff=None read as 4d)
def encoder_layer_param_count(d, d_ff=None):
    d_model = d
    d_ff = 4 * d if d_ff is None else d_ff
    num_layers = 1
    encoder_parameters = num_layers * (4 * d_model**2 + 2 * d_model * d_ff)
    return encoder_parameters
