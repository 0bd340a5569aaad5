# question: count_parameters
# fails: test_torch_modules, test_tied_weights_count_once, test_buffers_do_not_count, test_trainable_only, test_frozen_counted_by_default, test_bert_base_components, test_tiny_bert
# public: 2x3 weight and 2 biases
# diagnosis: count_weights_only
# counts only the tensors named weight: biases and other parameters are forgotten
def count_parameters(model, trainable_only=False):
    return sum(p.numel() for name, p in model.named_parameters()
               if name.endswith('weight') and (p.requires_grad or not trainable_only))
