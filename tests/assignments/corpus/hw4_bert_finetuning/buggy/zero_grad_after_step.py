# question: train_classifier
# fails: test_gradients_start_from_zero
# public: -
# zero_grad after the step, "to clean up": gradients already on the model (from an
# evaluation's backward, say) join the first update.
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
        opt.zero_grad()
        losses.append(loss.item())
    return losses
