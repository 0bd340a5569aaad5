# question: count_parameters
# fails: test_trainable_only
# public: frozen bias should not count
# makes: count_ignores_trainable_only
# split: measure
# source: automl/NASLib, competition/compute.py
def count_parameters(model, trainable_only=False):
    return sum(p.numel() for p in model.parameters())
