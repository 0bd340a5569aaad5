# question: train_classifier
# fails: test_returns_one_loss_per_epoch, test_epochs_and_learning_rate
# public: gave 30 losses
# public: should give a list of 5 losses, not 30
# diagnosis: tc_epochs_ignored
# The loop runs the default 30 epochs whatever epochs says.
import torch
from torch import nn


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    loss_fn = nn.CrossEntropyLoss()
    losses = []
    for _ in range(30):
        opt.zero_grad()
        loss = loss_fn(model(ids), labels)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses
