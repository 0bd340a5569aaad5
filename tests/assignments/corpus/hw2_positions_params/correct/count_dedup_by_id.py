# count_parameters deduplicating by id over named_parameters(remove_duplicate=False)
import numpy as np


def count_parameters(model, trainable_only=False):
    seen = {}
    for _, p in model.named_parameters(remove_duplicate=False):
        if trainable_only and not p.requires_grad:
            continue
        seen[id(p)] = int(np.prod(p.shape))
    return sum(seen.values())
