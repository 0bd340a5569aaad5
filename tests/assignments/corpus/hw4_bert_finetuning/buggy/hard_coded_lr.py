# question: train_classifier
# fails: test_epochs_and_learning_rate
# public: -
# diagnosis: tc_lr_ignored
# The learning rate is hard-coded: lr is ignored.
import torch
from torch import nn


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    """Mistake: the learning rate is written into the optimizer, lr is ignored."""
    opt = torch.optim.Adam(model.parameters(), lr=0.001)
    losses = []
    for _ in range(epochs):
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(ids), labels)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses
