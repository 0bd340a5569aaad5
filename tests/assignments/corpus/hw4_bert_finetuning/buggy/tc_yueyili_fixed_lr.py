# question: train_classifier
# fails: test_epochs_and_learning_rate
# public: -
# makes: tc_lr_ignored
# batch E
# source: yueyili128-stack/mnist-cnn-handwritten-digit-recognition, train.py (train: its train_loader is the
# source: one full batch [(ids, labels)], device the ids'; the total_loss it prints each epoch is kept, as
# source: the stub returns them)
import torch
import torch.nn as nn
import torch.optim as optim


def train(model, train_loader, device, epochs=5):
    optimizer = optim.Adam(model.parameters(), lr=0.001)
    criterion = nn.CrossEntropyLoss()
    losses = []

    model.train()
    for epoch in range(epochs):
        total_loss = 0
        for data, target in train_loader:
            data, target = data.to(device), target.to(device)

            optimizer.zero_grad()
            output = model(data)
            loss = criterion(output, target)
            loss.backward()
            optimizer.step()

            total_loss += loss.item()

        print(f"Epoch {epoch+1}, Loss: {total_loss:.4f}")
        losses.append(total_loss)
    return losses


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    return train(model, [(ids, labels)], ids.device, epochs=epochs)
