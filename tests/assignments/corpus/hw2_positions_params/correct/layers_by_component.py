# encoder and decoder counts written per component, d_ff spelled out, decoder built on the encoder
def attention_params(d):
    weights = 4 * d * d        # W_q, W_k, W_v, W_o
    biases = 4 * d
    return weights + biases


def ffn_params(d, d_ff):
    return (d * d_ff + d_ff) + (d_ff * d + d)


def layer_norm_params(d):
    return 2 * d               # gamma and beta


def encoder_layer_param_count(d, d_ff=None):
    if d_ff is None:
        d_ff = 4 * d
    return attention_params(d) + ffn_params(d, d_ff) + 2 * layer_norm_params(d)


def decoder_layer_param_count(d, d_ff=None):
    # an encoder layer plus cross-attention and a third LayerNorm
    return encoder_layer_param_count(d, d_ff) + attention_params(d) + layer_norm_params(d)
