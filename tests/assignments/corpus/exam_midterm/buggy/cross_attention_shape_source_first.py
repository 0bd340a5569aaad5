# question: cross_attention_shape
# fails: test_shape
# diagnosis: shape_source_first
c = P["cross_attention_shape"]
CROSS_ATTENTION_SHAPE = (c["batch"], c["heads"], c["n_src"], c["n_tgt"])
