# question: train_classifier
# fails: test_epochs_and_learning_rate
# public: -
# makes: tc_lr_ignored
# batch G1 (labelled before grading)
# split: measure
# source: pedramfekri/simpleCNN, train.py (train_model: data and labels are ids and labels, the device the
# source: ids'; the loss.item() it prints each epoch is returned, as the stub returns them)
import torch.nn as nn
import torch.optim as optim


def train_model(model, data, labels, epochs=5, device=None):
    criterion = nn.CrossEntropyLoss()
    optimizer = optim.Adam(model.parameters(), lr=0.001)
    losses = []

    for epoch in range(epochs):
        optimizer.zero_grad()
        outputs = model(data.to(device))
        loss = criterion(outputs, labels.to(device))
        loss.backward()
        optimizer.step()
        print(f"Epoch {epoch+1}, Loss: {loss.item()}")
        losses.append(loss.item())
    return losses


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    return train_model(model, ids, labels, epochs=epochs, device=ids.device)
