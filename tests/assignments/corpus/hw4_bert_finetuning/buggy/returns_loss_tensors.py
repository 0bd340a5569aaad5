# question: train_classifier
# fails: test_returns_one_loss_per_epoch
# public: each loss should be a float
# diagnosis: tc_loss_tensors
# Returns the loss tensors themselves instead of floats.
import torch
from torch import nn


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    loss_fn = nn.CrossEntropyLoss()
    losses = []
    for epoch in range(epochs):
        opt.zero_grad()
        loss = loss_fn(model(ids), labels)
        loss.backward()
        opt.step()
        losses.append(loss)
    return losses
