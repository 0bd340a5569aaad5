# question: mlm_loss
# fails: test_leading_dimensions
# public: must take any leading dimensions
# diagnosis: mlm_not_flattened
# Passes (B, T, V) logits straight to F.cross_entropy, which reads dim 1 as the classes.
import torch
import torch.nn.functional as F


def mlm_loss(logits, labels):
    if (labels == -100).all():
        return torch.zeros(())
    return F.cross_entropy(logits, labels)
