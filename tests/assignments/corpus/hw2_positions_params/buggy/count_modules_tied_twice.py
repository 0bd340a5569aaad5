# question: count_parameters
# fails: test_tied_weights_count_once
# public: a weight shared by two layers counts once
# diagnosis: count_tied_twice
# walks every module's own parameters: a weight tied between two modules counts twice
def count_parameters(model, trainable_only=False):
    total = 0
    for module in model.modules():
        for p in module.parameters(recurse=False):
            if p.requires_grad or not trainable_only:
                total += p.numel()
    return total
