# question: encoder_params
# fails: test_parameter_count
# public: -
# makes: params_12_d_squared
# batch blind-H3 (labelled before grading)
# (3+4)*H*H: weight matrices only (no bias, no LayerNorm), the feed-forward width taken
# as 4d; also the output projection and the second feed-forward matrix left out (7 d^2)
# split: measure
# source: hqyang/BertTest, Test/verify.py (calSize's count for one layer, ((3+4)*H*H)*l with l = 1 and
# source: H = d_model: Query, Key, Value 3*H*H and Intermediate 4*H*H; its embedding and pooler terms
# source: left out, they are not in an encoder layer)
H = P["encoder_params"]["d_model"]
l = 1
# Query, Key, value: 3*H*H; Intermediate: 4*H *H
ENCODER_LAYER_PARAMS = ((3 + 4) * H * H) * l
