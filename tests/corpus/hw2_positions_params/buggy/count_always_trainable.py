# question: count_parameters
# always filters on requires_grad: frozen parameters vanish from the default count
def count_parameters(model, trainable_only=False):
    return sum(p.numel() for p in model.parameters() if p.requires_grad)
