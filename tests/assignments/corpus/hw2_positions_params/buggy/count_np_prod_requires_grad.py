# question: count_parameters
# fails: test_frozen_counted_by_default
# public: frozen parameters still count by default
# makes: count_always_trainable
# also a NumPy integer, not an int (no diagnosis)
# split: measure
# source: qzed/raft-meets-dicl, src/utils/model.py (count_parameters)
import numpy as np


def count_parameters(model, trainable_only=False):
    return np.sum([np.prod(p.size()) for p in model.parameters() if p.requires_grad])
