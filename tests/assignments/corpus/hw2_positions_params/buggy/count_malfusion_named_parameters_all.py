# question: count_parameters
# fails: test_trainable_only
# public: the frozen bias should not count
# makes: count_ignores_trainable_only
# batch blind-H2 (labelled before grading)
# split: measure
# source: Asichurter/MalFusionFSL, utils/stat.py (statParamNumber, its printed total returned)
import torch


def statParamNumber(model: torch.nn.Module):
    num_of_params = 0
    param_dict = {}
    for name, par in model.named_parameters():
        num_of_params += par.numel()
        param_dict[name] = par.numel()
    print('params:', num_of_params)
    for k, v in param_dict.items():
        print(k, v)
    return num_of_params


def count_parameters(model, trainable_only=False):
    return statParamNumber(model)
