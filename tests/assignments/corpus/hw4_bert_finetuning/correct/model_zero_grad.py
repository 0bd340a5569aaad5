# model.zero_grad() instead of the optimizer's, the loss read with detach().item(),
# a while loop, the model switched to training mode first.
import torch
from torch import nn


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    model.train()
    adam = torch.optim.Adam(model.parameters(), lr)
    criterion = nn.CrossEntropyLoss()
    losses = []
    epoch = 0
    while epoch < epochs:
        model.zero_grad()
        logits = model(ids)
        loss = criterion(logits, labels)
        losses.append(loss.detach().item())
        loss.backward()
        adam.step()
        epoch += 1
    return losses
