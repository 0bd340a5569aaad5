# count_parameters walking the modules by hand, with a set of parameters already counted
def count_parameters(model, trainable_only=False):
    counted = set()
    total = 0
    for module in model.modules():
        for p in module.parameters(recurse=False):
            if p in counted:  # tied: already counted through another module
                continue
            counted.add(p)
            if p.requires_grad or not trainable_only:
                total += p.nelement()
    return total
