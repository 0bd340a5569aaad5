# encoder and decoder counts as one expanded polynomial each
def encoder_layer_param_count(d, d_ff=None):
    f = 4 * d if d_ff is None else d_ff
    return 4 * d ** 2 + 2 * d * f + f + 9 * d


def decoder_layer_param_count(d, d_ff=None):
    f = 4 * d if d_ff is None else d_ff
    return 8 * d ** 2 + 2 * d * f + f + 15 * d
