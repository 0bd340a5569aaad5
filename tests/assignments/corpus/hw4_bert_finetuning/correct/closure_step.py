# The step as a closure, zero_grad(set_to_none=True), functional cross-entropy.
import torch
import torch.nn.functional as F


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    history = []

    def closure():
        optimizer.zero_grad(set_to_none=True)
        loss = F.cross_entropy(model(ids), labels)
        loss.backward()
        history.append(float(loss.detach()))
        return loss

    for _ in range(epochs):
        optimizer.step(closure)
    return history
