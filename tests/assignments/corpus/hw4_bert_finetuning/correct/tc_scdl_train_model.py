# split: measure
# source: YousIA/SCDL, train.py (train_model: X_train and y_train are ids and labels; it returned the
# source: model, the stub returns each epoch's loss.item(), kept as its loop computes them)
import torch
import torch.optim as optim
import torch.nn as nn


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    X_train, y_train = ids, labels
    losses = []
    criterion = nn.CrossEntropyLoss()
    optimizer = optim.Adam(model.parameters(), lr=lr)
    for _ in range(epochs):
        optimizer.zero_grad()
        output = model(X_train)
        loss = criterion(output, y_train)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses
