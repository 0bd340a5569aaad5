# question: train_classifier
# fails: test_epochs_and_learning_rate
# public: -
# makes: tc_lr_ignored
# batch E
# Adam(model.parameters()): its default 1e-3 whatever lr says
# split: measure
# source: rkdrn79/brAIn_2th_Torch_Session, week1/clean_code/ex4/train.py (train_model: its train_loader is
# source: the one full batch [(ids, labels)]; the loss.item() it prints each epoch is kept, as the stub
# source: returns them)
import torch
import torch.nn as nn
import torch.optim as optim


def train_model(model, train_loader, epochs=3):
    criterion = nn.CrossEntropyLoss()
    optimizer = optim.Adam(model.parameters())
    losses = []

    for epoch in range(epochs):
        for images, labels in train_loader:
            outputs = model(images)
            loss = criterion(outputs, labels)

            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

        print(f"Epoch {epoch} Loss: {loss.item()}")
        losses.append(loss.item())
    return losses


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    return train_model(model, [(ids, labels)], epochs=epochs)
