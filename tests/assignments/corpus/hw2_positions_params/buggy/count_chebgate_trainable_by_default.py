# question: count_parameters
# fails: test_frozen_counted_by_default
# public: frozen parameters still count by default
# makes: count_always_trainable
# batch F (labelled before grading)
# trainable_only defaults to True
# source: Minxuan-Hu/chebgate, metrics/params.py (count_parameters)
import torch.nn as nn


def count_parameters(model: nn.Module, trainable_only: bool = True) -> int:
    if trainable_only:
        return sum(p.numel() for p in model.parameters() if p.requires_grad)
    return sum(p.numel() for p in model.parameters())
