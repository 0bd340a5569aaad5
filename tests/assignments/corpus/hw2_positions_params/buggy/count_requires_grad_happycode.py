# question: count_parameters
# fails: test_frozen_counted_by_default
# public: frozen parameters still count by default
# makes: count_always_trainable
# split: measure
# source: xieyuquanxx/HappyCode, utils/model.py
def count_parameters(model, trainable_only=False) -> int:
    return sum(p.numel() for p in model.parameters() if p.requires_grad)
