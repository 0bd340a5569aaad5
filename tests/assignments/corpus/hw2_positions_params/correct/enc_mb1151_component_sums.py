# split: measure
# source: MB1151/attention_is_all_you_need, building_transformers_step_by_step/model_building/
# source: step_15_machine_translation_model.ipynb (its manual count of one EncoderLayer:
# source: d_model = d, d_feed_forward the stub's d_ff, 4d when None)
def encoder_layer_param_count(d, d_ff=None):
    d_model = d
    d_feed_forward = 4 * d if d_ff is None else d_ff
    num_encoder_query_params = d_model * d_model + d_model
    num_encoder_key_params = d_model * d_model + d_model
    num_encoder_value_params = d_model * d_model + d_model
    num_encoder_attention_output_params = d_model * d_model + d_model
    num_encoder_feed_forward_linear_layer_1_params = d_model * d_feed_forward + d_feed_forward
    num_encoder_feed_forward_linear_layer_2_params = d_feed_forward * d_model + d_model
    num_encoder_attention_layer_norm_params = d_model + d_model
    num_encoder_feed_forward_layer_norm_params = d_model + d_model
    num_encoder_layer_params = (num_encoder_query_params + num_encoder_key_params
                                + num_encoder_value_params + num_encoder_attention_output_params
                                + num_encoder_feed_forward_linear_layer_1_params
                                + num_encoder_feed_forward_linear_layer_2_params
                                + num_encoder_attention_layer_norm_params
                                + num_encoder_feed_forward_layer_norm_params)
    return num_encoder_layer_params
