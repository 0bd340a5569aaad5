# split: measure
# source: norman-tom/mininlp, src/mininlp/training.py (train: data is the one full batch [(ids, labels)],
# source: criterion nn.CrossEntropyLoss and the device the ids'; its next-token reshape o.view(N, -1) dropped
# source: for a classifier's (B, n_classes) logits; the epoch loss it shows each epoch is returned)
import torch.nn as nn
from torch.optim import Adam


def train(model, data, criterion, lr, n_epochs, device):
    optimizer = Adam(model.parameters(), lr)
    epochs = range(n_epochs)
    history = []
    for _ in epochs:
        n_batch = 0.0
        epoch_loss = 0.0
        for x, y in data:
            x = x.to(device)
            y = y.to(device)
            optimizer.zero_grad()
            o = model(x)
            loss = criterion(o, y)
            loss.backward()
            n_batch += 1
            epoch_loss += loss.item()
            optimizer.step()
        epoch_loss /= n_batch
        history.append(epoch_loss)
    return history


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    return train(model, [(ids, labels)], nn.CrossEntropyLoss(), lr, epochs, ids.device)
