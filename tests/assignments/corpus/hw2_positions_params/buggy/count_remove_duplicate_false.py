# question: count_parameters
# fails: test_tied_weights_count_once
# public: a weight shared by two layers counts once
# diagnosis: count_tied_twice
# named_parameters(remove_duplicate=False) lists a shared Parameter under each of its names
def count_parameters(model, trainable_only=False):
    return sum(p.numel() for _, p in model.named_parameters(remove_duplicate=False)
               if p.requires_grad or not trainable_only)
