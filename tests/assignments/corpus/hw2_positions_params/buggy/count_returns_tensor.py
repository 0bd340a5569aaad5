# question: count_parameters
# fails: test_returns_int
# public: should return an int, not Tensor
# diagnosis: count_tensor
# returns a 0-d torch tensor instead of an int
import torch


def count_parameters(model, trainable_only=False):
    sizes = [torch.tensor(p.shape).prod() for p in model.parameters()
             if p.requires_grad or not trainable_only]
    return torch.stack(sizes).sum() if sizes else torch.tensor(0)
