"""Sent by test_train_classifier.py: the model handed to the loop already holds
gradients (seeded, as after an evaluation's backward), or none with seed None."""

import torch


def run(train, model, ids, labels, seed, **kwargs):
    if seed is not None:
        g = torch.Generator().manual_seed(seed)
        for p in model.parameters():
            p.grad = torch.randn(p.shape, generator=g, dtype=p.dtype)
    return train(model, ids, labels, **kwargs)
