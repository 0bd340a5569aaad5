# question: train_classifier
# fails: test_returns_one_loss_per_epoch, test_documented_training_run, test_epochs_and_learning_rate
# public: epochs=4 gave 5 losses
# makes: tc_epochs_ignored, tc_lr_ignored
# batch E
# 5 epochs and lr=0.001 written in
# source: viwsliu/Handwritten-Digit-Recognition, train.py (train: its train_loader is the one full batch
# source: [(ids, labels)], device the ids'; the total_loss it prints each epoch is kept, as the stub returns
# source: them)
import torch
import torch.nn as nn
import torch.optim as optim


def train(model, train_loader, device):
    model.train()
    optimizer = optim.Adam(model.parameters(), lr=0.001)
    criterion = nn.CrossEntropyLoss()
    losses = []
    for epoch in range(5):
        total_loss = 0
        for x, y in train_loader:
            x, y = x.to(device), y.to(device)
            optimizer.zero_grad()
            output = model(x)
            loss = criterion(output, y)
            loss.backward()
            optimizer.step()
            total_loss += loss.item()
        print(f"Epoch {epoch+1}, Loss: {total_loss:.4f}")
        losses.append(total_loss)
    return losses


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    return train(model, [(ids, labels)], ids.device)
