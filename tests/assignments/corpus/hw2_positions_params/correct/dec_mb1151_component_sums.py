# split: measure
# source: MB1151/attention_is_all_you_need, building_transformers_step_by_step/model_building/
# source: step_15_machine_translation_model.ipynb (its manual count of one DecoderLayer:
# source: d_model = d, d_feed_forward the stub's d_ff, 4d when None)
def decoder_layer_param_count(d, d_ff=None):
    d_model = d
    d_feed_forward = 4 * d if d_ff is None else d_ff
    num_decoder_self_attention_query_params = d_model * d_model + d_model
    num_decoder_self_attention_key_params = d_model * d_model + d_model
    num_decoder_self_attention_value_params = d_model * d_model + d_model
    num_decoder_self_attention_output_params = d_model * d_model + d_model
    num_decoder_src_attention_query_params = d_model * d_model + d_model
    num_decoder_src_attention_key_params = d_model * d_model + d_model
    num_decoder_src_attention_value_params = d_model * d_model + d_model
    num_decoder_src_attention_output_params = d_model * d_model + d_model
    num_decoder_feed_forward_linear_layer_1_params = d_model * d_feed_forward + d_feed_forward
    num_decoder_feed_forward_linear_layer_2_params = d_model * d_feed_forward + d_model
    num_decoder_self_attention_layer_norm_params = d_model + d_model
    num_decoder_src_attention_layer_norm_params = d_model + d_model
    num_decoder_feed_forward_layer_norm_params = d_model + d_model
    num_decoder_layer_params = (num_decoder_self_attention_query_params
                                + num_decoder_self_attention_key_params
                                + num_decoder_self_attention_value_params
                                + num_decoder_self_attention_output_params
                                + num_decoder_src_attention_query_params
                                + num_decoder_src_attention_key_params
                                + num_decoder_src_attention_value_params
                                + num_decoder_src_attention_output_params
                                + num_decoder_feed_forward_linear_layer_1_params
                                + num_decoder_feed_forward_linear_layer_2_params
                                + num_decoder_self_attention_layer_norm_params
                                + num_decoder_src_attention_layer_norm_params
                                + num_decoder_feed_forward_layer_norm_params)
    return num_decoder_layer_params
