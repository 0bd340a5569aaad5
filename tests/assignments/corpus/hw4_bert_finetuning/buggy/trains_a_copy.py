# question: train_classifier
# fails: test_trains_the_given_model
# public: -
# Trains a deep copy: the losses are right, but the model passed in is left untrained.
import torch
from torch import nn


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    import copy
    model = copy.deepcopy(model)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    loss_fn = nn.CrossEntropyLoss()
    losses = []
    for epoch in range(epochs):
        opt.zero_grad()
        loss = loss_fn(model(ids), labels)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses
