# question: train_classifier
# fails: test_gradients_start_from_zero
# public: -
# makes: -
# batch E
# zero_grad after the step (gradients on the model join the first update): no diagnosis
# source: dvgodoy/PyTorchStepByStep, model_training/v0.py (the book's training loop in the stub: its
# source: n_epochs is epochs, x_train_tensor and y_train_tensor ids and labels; the optimizer and
# source: loss_fn its configuration script makes are the contract's Adam(lr) and CrossEntropyLoss, and
# source: each epoch's loss.item() is kept, as the stub returns them)
import torch
from torch import nn


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    x_train_tensor, y_train_tensor = ids, labels
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    loss_fn = nn.CrossEntropyLoss()
    losses = []

    # Defines number of epochs
    n_epochs = epochs

    for epoch in range(n_epochs):
        # Sets model to TRAIN mode
        model.train()

        # Step 1 - Computes model's predicted output - forward pass
        yhat = model(x_train_tensor)

        # Step 2 - Computes the loss
        loss = loss_fn(yhat, y_train_tensor)

        # Step 3 - Computes gradients for both "b" and "w" parameters
        loss.backward()

        # Step 4 - Updates parameters using gradients and
        # the learning rate
        optimizer.step()
        optimizer.zero_grad()
        losses.append(loss.item())

    return losses
