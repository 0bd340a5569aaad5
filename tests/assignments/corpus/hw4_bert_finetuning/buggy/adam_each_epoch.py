# question: train_classifier
# fails: test_documented_training_run
# public: -
# diagnosis: tc_fresh_optimizer
# A new Adam every epoch: its moment estimates restart at zero each time.
import torch
from torch import nn


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    loss_fn = nn.CrossEntropyLoss()
    losses = []
    for epoch in range(epochs):
        opt = torch.optim.Adam(model.parameters(), lr=lr)
        opt.zero_grad()
        loss = loss_fn(model(ids), labels)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses
