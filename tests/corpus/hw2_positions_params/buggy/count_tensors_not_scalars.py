# question: count_parameters
# counts parameter tensors instead of the scalars they hold
def count_parameters(model, trainable_only=False):
    return len([p for p in model.parameters() if p.requires_grad or not trainable_only])
