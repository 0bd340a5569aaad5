# question: train_classifier
# fails: test_returns_one_loss_per_epoch, test_documented_training_run, test_epochs_and_learning_rate
# public: epochs=4 gave 20 losses
# public: list of 5 losses, not 20
# makes: tc_epochs_ignored, tc_lr_ignored
# batch I1 (labelled before grading; split by sha1 of the stem, the first half measured)
# Adam(lr=0.001), 20 epochs
# split: measure
# source: dev-harshkatiyar/Vehicle-Cut-in-Detection, trainingTheLoop.py (its loop as the stub: train_loader
# source: is the one full batch [(ids, labels)], device the ids'; the loss it prints each epoch is returned,
# source: as the stub returns the epochs' losses)
import torch.nn as nn
import torch.optim as optim


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    train_loader = [(ids, labels)]
    device = ids.device
    history = []

    # Define loss function and optimizer
    criterion = nn.CrossEntropyLoss()
    optimizer = optim.Adam(model.parameters(), lr=0.001)

    # Training loop
    num_epochs = 20
    for epoch in range(num_epochs):
        model.train()
        for images, labels in train_loader:
            images = images.to(device)
            labels = labels.to(device)
            outputs = model(images)
            loss = criterion(outputs, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

        print(f"Epoch [{epoch+1}/{num_epochs}], Loss: {loss.item():.4f}")
        history.append(loss.item())
    return history
