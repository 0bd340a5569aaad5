# question: encoder_layer_param_count
# forgets every bias of the attention and the feed-forward network
def encoder_layer_param_count(d, d_ff=None):
    d_ff = 4 * d if d_ff is None else d_ff
    return 4 * d * d + 2 * d * d_ff + 4 * d
