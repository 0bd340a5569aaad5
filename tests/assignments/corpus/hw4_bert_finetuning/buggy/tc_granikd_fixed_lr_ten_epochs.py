# question: train_classifier
# fails: test_returns_one_loss_per_epoch, test_documented_training_run, test_epochs_and_learning_rate
# public: epochs=4 gave 10 losses
# public: a list of 5 losses, not 10
# makes: tc_epochs_ignored, tc_lr_ignored
# batch H1 (labelled before grading)
# Adam(lr=1e-4), 10 epochs
# split: measure
# source: GranikD/endocap, тренировка_нейросети.py (its loop with nn.CrossEntropyLoss, Adam(lr=1e-4) and
# source: epochs = 10; train_loader is the one full batch [(ids, labels)], device the ids'; the mean loss
# source: it prints each epoch is returned)
import torch.nn as nn
import torch.optim as optim


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    device = ids.device
    train_loader = [(ids, labels)]
    criterion = nn.CrossEntropyLoss()
    optimizer = optim.Adam(model.parameters(), lr=1e-4)

    epochs = 10
    losses = []

    for epoch in range(epochs):
        model.train()
        total_loss = 0

        for images, labels in train_loader:
            images, labels = images.to(device), labels.to(device)

            optimizer.zero_grad()
            outputs = model(images)
            loss = criterion(outputs, labels)
            loss.backward()
            optimizer.step()

            total_loss += loss.item()

        print(f"Epoch {epoch+1}, Loss: {total_loss/len(train_loader):.4f}")
        losses.append(total_loss/len(train_loader))
    return losses
