# question: count_parameters
# fails: test_frozen_counted_by_default
# public: frozen parameters still count by default
# diagnosis: count_always_trainable
# always filters on requires_grad: frozen parameters vanish from the default count
def count_parameters(model, trainable_only=False):
    return sum(p.numel() for p in model.parameters() if p.requires_grad)
