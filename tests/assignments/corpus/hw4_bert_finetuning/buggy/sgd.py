# question: train_classifier
# fails: test_documented_training_run
# public: -
# diagnosis: tc_sgd
# Plain SGD instead of Adam.
import torch
from torch import nn


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    loss_fn = nn.CrossEntropyLoss()
    losses = []
    for epoch in range(epochs):
        opt.zero_grad()
        loss = loss_fn(model(ids), labels)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses
