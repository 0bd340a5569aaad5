# question: train_classifier
# fails: test_epochs_and_learning_rate
# public: -
# diagnosis: tc_zero_epochs_step
# A do-while loop that checks the epoch count after the step: epochs=0 still trains once.
import torch
from torch import nn


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    loss_fn = nn.CrossEntropyLoss()
    losses = []
    while True:
        opt.zero_grad()
        loss = loss_fn(model(ids), labels)
        loss.backward()
        opt.step()
        losses.append(loss.item())
        if len(losses) >= epochs:
            return losses
