# question: train_classifier
# fails: test_documented_training_run
# public: -
# Adam with the learning rate decayed linearly to 0 over the epochs (the schedule BERT's
# fine-tuning recipes use): one choice, so one test; it uses the epochs and lr it is given.
import torch
from torch import nn


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    schedule = torch.optim.lr_scheduler.LambdaLR(opt, lambda epoch: 1 - epoch / max(1, epochs))
    loss_fn = nn.CrossEntropyLoss()
    losses = []
    for _ in range(epochs):
        opt.zero_grad()
        loss = loss_fn(model(ids), labels)
        loss.backward()
        opt.step()
        schedule.step()
        losses.append(loss.item())
    return losses
