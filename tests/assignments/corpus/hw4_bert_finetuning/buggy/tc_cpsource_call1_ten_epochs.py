# question: train_classifier
# fails: test_returns_one_loss_per_epoch, test_documented_training_run, test_epochs_and_learning_rate
# public: epochs=4 gave 10 losses
# public: list of 5 losses, not 10
# makes: tc_epochs_ignored, tc_lr_ignored
# batch I1 (labelled before grading; split by sha1 of the stem, the first half measured)
# Adam(lr=0.001), 10 epochs
# source: cpsource/PlayWithAI, buildmodel_tutorial/call1.py (its loop as the stub: train_loader is the one
# source: full batch [(ids, labels)], device the ids'; the last loss of each epoch is returned, as the stub
# source: returns the epochs' losses)
import torch
import torch.nn as nn


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    train_loader = [(ids, labels)]
    device = ids.device
    history = []

    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.001)

    for epoch in range(10):
        for i, (data, target) in enumerate(train_loader):
            x = data.to(device)
            y = target.to(device)

            # Forward pass
            logits = model(x)

            # Compute loss
            loss = criterion(logits, y)

            # Backpropagation
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        history.append(loss.item())
    return history
