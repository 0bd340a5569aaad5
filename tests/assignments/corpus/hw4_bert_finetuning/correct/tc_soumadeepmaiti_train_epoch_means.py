# split: measure
# source: soumadeepmaiti/MNIST_CNN_Classifier, scripts/train.py and scripts/main.py (train with the
# source: criterion and optimizer main builds, nn.CrossEntropyLoss and Adam, its lr and num_epochs the
# source: stub's; train_loader is the one full batch [(ids, labels)] on the ids' device)
import torch.nn as nn
import torch.optim as optim


def train(model, train_loader, criterion, optimizer, num_epochs=10, device=None):
    model.train()
    train_losses = []

    for epoch in range(num_epochs):
        running_loss = 0.0
        for images, labels in train_loader:
            images, labels = images.to(device), labels.to(device)

            optimizer.zero_grad()
            outputs = model(images)
            loss = criterion(outputs, labels)
            loss.backward()
            optimizer.step()

            running_loss += loss.item()

        epoch_loss = running_loss / len(train_loader)
        train_losses.append(epoch_loss)
        print(f'Epoch [{epoch+1}/{num_epochs}], Loss: {epoch_loss:.4f}')

    return train_losses


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    criterion = nn.CrossEntropyLoss()
    optimizer = optim.Adam(model.parameters(), lr=lr)
    return train(model, [(ids, labels)], criterion, optimizer, epochs, ids.device)
