# question: train_classifier
# fails: test_returns_one_loss_per_epoch, test_documented_training_run, test_epochs_and_learning_rate
# public: epochs=4 gave 3 losses
# public: list of 5 losses, not 4
# diagnosis: tc_one_epoch_short
# One epoch too few.
import torch
from torch import nn


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    loss_fn = nn.CrossEntropyLoss()
    losses = []
    for epoch in range(epochs - 1):
        opt.zero_grad()
        loss = loss_fn(model(ids), labels)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses
