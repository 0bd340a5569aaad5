# question: train_classifier
# fails: test_epochs_and_learning_rate
# public: -
# makes: tc_lr_ignored
# batch I1 (labelled before grading; split by sha1 of the stem, the first half measured)
# Adam(lr=0.001) written in
# split: measure
# source: marikanappi/FaceIdentification, train.py (its train_model as the stub, in the version with
# source: Adam(lr=0.001) written in and epochs=300: train_loader is the one full batch [(ids, labels)],
# source: device 'cpu'; the epoch_loss it prints is returned for each epoch, as the stub returns them)
import torch
import torch.nn as nn


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    train_loader = [(ids, labels)]
    device = 'cpu'
    history = []
    model.to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.001)
    criterion = nn.CrossEntropyLoss()

    model.train()
    for epoch in range(epochs):
        epoch_loss = 0
        correct = 0
        total = 0
        for X_batch, y_batch in train_loader:
            X_batch, y_batch = X_batch.to(device), y_batch.to(device)

            optimizer.zero_grad()
            outputs = model(X_batch)
            loss = criterion(outputs, y_batch)
            loss.backward()
            optimizer.step()

            epoch_loss += loss.item()
            _, predicted = torch.max(outputs, 1)
            correct += (predicted == y_batch).sum().item()
            total += y_batch.size(0)

        accuracy = 100 * correct / total
        print(f"Epoch {epoch}/50 - Loss: {epoch_loss:.4f} - Accuracy: {accuracy:.2f}%")
        history.append(epoch_loss)
    return history
