# split: measure
# source: neelpawarcmu/transformer-research-code, model/utils.py (count_params without its printout:
# source: its num_params, or num_trainable_params with trainable_only, is what the stub returns)
def count_params(model):
    num_param_matrices, num_params, num_trainable_params = 0, 0, 0

    for p in model.parameters():
        num_param_matrices += 1
        num_params += p.numel()
        num_trainable_params += p.numel() * p.requires_grad

    return num_param_matrices, num_params, num_trainable_params


def count_parameters(model, trainable_only=False):
    _, num_params, num_trainable_params = count_params(model)
    return num_trainable_params if trainable_only else num_params
