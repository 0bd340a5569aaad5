# question: encoder_layer_param_count
# fails: test_default_width_matches_torch, test_explicit_width_matches_torch, test_lesson_figures
# public: count every weight and bias
# makes: -
# batch F (labelled before grading)
# only the Q, K and V biases are missing (3d): not enc_no_biases' "the biases are left out"
# split: measure
# source: zixuya/BadouNLP, 张瑞岩/week06/homework06.py (its first version: the script's
# source: single_transformer_layer with hidden_size = d and intermediate_weight_size = d_ff, 4d when None)


def encoder_layer_param_count(d, d_ff=None):
    hidden_size = d  # 向量维度
    intermediate_weight_size = 4 * d if d_ff is None else d_ff  # feed_forward层维度

    #self_attention
    q = hidden_size * hidden_size
    k = hidden_size * hidden_size
    v = hidden_size * hidden_size
    self_attention_output = hidden_size * hidden_size + hidden_size
    self_attention_layer_norm = hidden_size + hidden_size
    self_attention_total = q + k + v + self_attention_output + self_attention_layer_norm

    #feed_forward
    feed_forward = hidden_size * intermediate_weight_size + intermediate_weight_size
    feed_forward_output = hidden_size * intermediate_weight_size + hidden_size
    self_attention_layer_norm = hidden_size + hidden_size
    feed_forward_total = feed_forward + feed_forward_output + self_attention_layer_norm

    single_transformer_layer = self_attention_total + feed_forward_total
    return single_transformer_layer
