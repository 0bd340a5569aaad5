# question: train_classifier
# fails: test_documented_training_run, test_epochs_and_learning_rate
# public: epochs=4 gave 3 losses
# public: list of 5 losses, not 3
# makes: tc_sgd, tc_epochs_ignored
# batch G1 (labelled before grading)
# SGD(lr), 3 epochs
# split: measure
# source: pavelzw/proseminar-pytorch-keras, elaboration/code/train-model-pytorch.py (its loop as the stub:
# source: lr_rate is lr, train_loader the one full batch [(ids, labels)]; each epoch's loss.item()
# source: recorded, as the stub returns them)
import torch


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    lr_rate = lr
    train_loader = [(ids, labels)]
    losses = []

    loss_criterion = torch.nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=lr_rate)

    epochs = 3

    for epoch in range(epochs):
        print(f"Epoch {epoch+1}/{epochs}")
        for images, labels in train_loader:
            optimizer.zero_grad()

            outputs = model(images)
            loss = loss_criterion(outputs, labels)
            loss.backward()
            optimizer.step()
        losses.append(loss.item())
    return losses
