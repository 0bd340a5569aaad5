# question: mlm_loss
# fails: test_gradient_flows_to_logits
# public: -
# The right value, rebuilt from .item(): no gradient reaches the logits.
import torch
import torch.nn.functional as F


def mlm_loss(logits, labels):
    if (labels == -100).all():
        return torch.tensor(0.0)
    loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1))
    return torch.tensor(loss.item(), dtype=logits.dtype)
