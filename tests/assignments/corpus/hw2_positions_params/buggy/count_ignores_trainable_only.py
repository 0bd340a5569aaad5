# question: count_parameters
# fails: test_trainable_only
# public: the frozen bias should not count
# diagnosis: count_ignores_trainable_only
# trainable_only is accepted but ignored
def count_parameters(model, trainable_only=False):
    """Right count, but trainable_only is ignored."""
    return sum(p.numel() for p in model.parameters())
