# question: train_classifier
# fails: test_documented_training_run, test_gradients_start_from_zero
# public: -
# diagnosis: tc_no_zero_grad
# zero_grad is never called: gradients accumulate over the epochs.
import torch
from torch import nn


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    loss_fn = nn.CrossEntropyLoss()
    losses = []
    for epoch in range(epochs):
        loss = loss_fn(model(ids), labels)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses
