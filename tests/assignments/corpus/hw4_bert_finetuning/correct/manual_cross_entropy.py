# Cross-entropy written out with log_softmax and gather, gradients cleared by
# setting them to None by hand, the losses collected as a tensor first.
import torch


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    params = list(model.parameters())
    adam = torch.optim.Adam(params, lr=lr)
    recorded = torch.zeros(epochs)
    for epoch in range(epochs):
        for p in params:
            p.grad = None
        log_probs = torch.log_softmax(model(ids), dim=-1)  # (N, C)
        loss = -log_probs.gather(1, labels.unsqueeze(1)).mean()
        loss.backward()
        adam.step()
        recorded[epoch] = loss.detach()
    return recorded.tolist()
