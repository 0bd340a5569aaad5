# question: decoder_layer_param_count
# fails: test_default_width_matches_torch, test_explicit_width_matches_torch, test_lesson_figures
# public: count every weight and bias
# makes: dec_cross_kv_only, dec_cross_no_bias
# 6 d^2 + 2 d d_ff: cross-attention as two projections; also no biases and no
# LayerNorms anywhere (no decoder diagnosis for those)
# source: FernandoRFranca/pytorch_transformer_template, param_calculator.py (estimate_parameters'
# source: decoder_parameters for num_layers = 1, d_model = d; the stub's d_ff=None read as 4d)
def decoder_layer_param_count(d, d_ff=None):
    d_model = d
    d_ff = 4 * d if d_ff is None else d_ff
    num_layers = 1
    decoder_parameters = num_layers * (6 * d_model**2 + 2 * d_model * d_ff)
    return decoder_parameters
