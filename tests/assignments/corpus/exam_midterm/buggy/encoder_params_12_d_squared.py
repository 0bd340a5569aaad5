# question: encoder_params
# fails: test_parameter_count
# diagnosis: params_12_d_squared
# The textbook rule of thumb: d_ff = 4 d, no biases, no LayerNorms.
ENCODER_LAYER_PARAMS = 12 * P["encoder_params"]["d_model"] ** 2
