# split: measure
# source: pab1s/tda-nn-analysis, train.py (train with verbose=False: train_loader is the one full batch
# source: [(ids, labels)], criterion and optimizer the stub's nn.CrossEntropyLoss and Adam(lr), the device
# source: the ids'; its CSV log and loss plot left out, the epoch_losses it logs returned)
import torch.nn as nn
import torch.optim as optim


def train(model, train_loader, device, criterion, optimizer, num_epochs):
    model.train()
    epoch_losses = []

    for epoch in range(num_epochs):
        running_loss = 0.0
        progress_bar = enumerate(train_loader, 1)

        for batch_idx, (images, labels) in progress_bar:
            images, labels = images.to(device), labels.to(device)
            optimizer.zero_grad()
            outputs = model(images)
            loss = criterion(outputs, labels)
            loss.backward()
            optimizer.step()
            running_loss += loss.item()

        epoch_loss = running_loss / len(train_loader)
        epoch_losses.append(epoch_loss)

    return epoch_losses


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    optimizer = optim.Adam(model.parameters(), lr=lr)
    return train(model, [(ids, labels)], ids.device, nn.CrossEntropyLoss(), optimizer, epochs)
