# question: count_parameters
# counts only the tensors named weight: biases and other parameters are forgotten
def count_parameters(model, trainable_only=False):
    return sum(p.numel() for name, p in model.named_parameters()
               if name.endswith('weight') and (p.requires_grad or not trainable_only))
