# Gradients cleared once before the loop and then at the end of each epoch (after the
# step) with set_to_none=False; the epochs counted down; the loss read after the step
# from the tensor of the forward pass.
import torch
from torch import nn


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    criterion = nn.CrossEntropyLoss()
    optimizer.zero_grad(set_to_none=False)
    losses = []
    remaining = epochs
    while remaining > 0:
        loss = criterion(model(ids), labels)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=False)
        losses.append(float(loss))
        remaining -= 1
    return losses
