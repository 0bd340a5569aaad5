"""Sent by test_mlm_loss.py: the gradient of the student's loss with respect to the
logits (None when the loss is not a tensor that autograd can differentiate)."""

import torch


def run(f, logits, labels):
    x = logits.clone().requires_grad_(True)
    loss = f(x, labels)
    if not isinstance(loss, torch.Tensor) or not loss.requires_grad:
        return None
    loss.backward()
    return x.grad
