# split: measure
# source: yaroslav-lototskyi/mnist_classifier, training/train.py (train_model: its train_loader is the one
# source: full batch [(ids, labels)], device the ids')
import torch

def train_model(model, train_loader, device, epochs=10, lr=0.001):
    model = model.to(device)
    criterion = torch.nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    train_losses = []

    for epoch in range(epochs):
        model.train()
        running_loss = 0.0
        for images, labels in train_loader:
            images, labels = images.to(device), labels.to(device)

            optimizer.zero_grad()
            outputs = model(images)
            loss = criterion(outputs, labels)
            loss.backward()
            optimizer.step()

            running_loss += loss.item()

        avg_loss = running_loss / len(train_loader)
        train_losses.append(avg_loss)
        print(f"Epoch [{epoch + 1}/{epochs}], Loss: {avg_loss:.4f}")

    return train_losses


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    return train_model(model, [(ids, labels)], ids.device, epochs=epochs, lr=lr)
