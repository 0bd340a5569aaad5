# split: measure
# source: dingo-gw/dingo, dingo/core/utils/torchutils.py (get_number_of_model_parameters: the stub's
# source: trainable_only becomes requires_grad_flags (True,), its default (True, False))
import torch.nn as nn


def get_number_of_model_parameters(
    model: nn.Module,
    requires_grad_flags: tuple = (True, False),
):
    num_params = 0
    for p in list(model.parameters()):
        if p.requires_grad in requires_grad_flags:
            n = 1
            for s in list(p.size()):
                n = n * s
            num_params += n
    return num_params


def count_parameters(model, trainable_only=False):
    return get_number_of_model_parameters(model, (True,) if trainable_only else (True, False))
