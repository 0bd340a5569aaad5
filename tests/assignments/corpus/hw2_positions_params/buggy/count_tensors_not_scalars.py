# question: count_parameters
# fails: test_torch_modules, test_tied_weights_count_once, test_buffers_do_not_count, test_trainable_only, test_frozen_counted_by_default, test_bert_base_components, test_tiny_bert
# public: 2x3 weight and 2 biases
# public: count its entries
# diagnosis: count_tensors
# counts parameter tensors instead of the scalars they hold
def count_parameters(model, trainable_only=False):
    return len([p for p in model.parameters() if p.requires_grad or not trainable_only])
