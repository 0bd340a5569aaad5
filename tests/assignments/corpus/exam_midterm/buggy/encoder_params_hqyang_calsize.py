# question: encoder_params
# fails: test_parameter_count
# public: -
# split: measure
# source: hqyang/BertTest, Test/verify.py (calSize's count for one layer, ((3+4)*H*H)*l with l = 1 and
# source: H = d_model: Query, Key, Value 3*H*H and Intermediate 4*H*H; its embedding and pooler terms
# source: left out, they are not in an encoder layer)
H = P["encoder_params"]["d_model"]
l = 1
# Query, Key, value: 3*H*H; Intermediate: 4*H *H
ENCODER_LAYER_PARAMS = ((3 + 4) * H * H) * l
