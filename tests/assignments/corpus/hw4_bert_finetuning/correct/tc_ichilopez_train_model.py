# split: measure
# source: ichilopez/TFG-INFORMATICA, utils/train.py (train_model: its train_loader is the one full batch
# source: [(ids, labels)], device the ids'; the loss it prints each epoch is kept and returned, as the stub
# source: returns them, rather than the model)
import torch.nn as nn
import torch.optim as optim

def train_model(model, train_loader, device, epochs, lr):
    model.to(device)
    criterion = nn.CrossEntropyLoss()
    optimizer = optim.Adam(model.parameters(), lr=lr)
    losses = []

    for epoch in range(epochs):
        model.train()
        total_loss = 0
        for imgs, labels in train_loader:
            imgs, labels = imgs.to(device), labels.to(device)
            optimizer.zero_grad()
            outputs = model(imgs)
            loss = criterion(outputs, labels)
            loss.backward()
            optimizer.step()
            total_loss += loss.item()
        print(f"Epoch [{epoch+1}/{epochs}] Loss: {total_loss/len(train_loader):.4f}")
        losses.append(total_loss/len(train_loader))
    return losses


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    return train_model(model, [(ids, labels)], ids.device, epochs, lr)
