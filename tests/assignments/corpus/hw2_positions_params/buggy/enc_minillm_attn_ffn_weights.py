# question: encoder_layer_param_count
# fails: test_default_width_matches_torch, test_explicit_width_matches_torch, test_lesson_figures
# public: count every weight and bias
# makes: enc_no_biases, enc_no_norms, enc_12d2
# batch G3 (labelled before grading)
# 4 d^2 + 2 d d_ff: 12 d^2 at d_ff = 4d, neither biases nor LayerNorms
# split: measure
# source: prp-e/minillm, params_calculator.py (attn_params + ffn_params for n_layers = 1,
# source: d_model = d; the stub's d_ff=None read as 4d; no embeddings)
def encoder_layer_param_count(d, d_ff=None):
    d_model = d
    d_ff = 4 * d if d_ff is None else d_ff
    n_layers = 1
    attn_params = n_layers * (4 * d_model * d_model)        # q,k,v,o
    ffn_params = n_layers * (2 * d_model * d_ff)            # up + down
    total_params = attn_params + ffn_params
    return total_params
