# question: train_classifier
# fails: test_documented_training_run
# public: the first loss should be the untrained model's
# diagnosis: tc_loss_after_step
# The loss is recorded after the step, from a second forward pass.
import torch
from torch import nn


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    """Mistake: each epoch's loss is measured again after the update."""
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    loss_fn = nn.CrossEntropyLoss()
    losses = []
    for _ in range(epochs):
        opt.zero_grad()
        loss_fn(model(ids), labels).backward()
        opt.step()
        with torch.no_grad():
            losses.append(loss_fn(model(ids), labels).item())
    return losses
