# question: train_classifier
# fails: test_returns_one_loss_per_epoch, test_documented_training_run, test_epochs_and_learning_rate, test_trains_the_given_model, test_gradients_start_from_zero
# public: exceeds dimension size
# makes: -
# batch H1 (labelled before grading)
# Adam(lr, weight_decay=0.1) and fixed mini-batches of 50 (narrow fails below 50 rows): none
# declared
# split: measure
# source: riccardocadei/DCNN-for-Digits-Comparison, training.py (train with the criterion and optimizer
# source: run_experiment builds, nn.CrossEntropyLoss and Adam(lr=lr, weight_decay=0.1), and its
# source: mini_batch_size=50; nb_epochs is epochs; there is no validation set, so its validation pass and
# source: best-model checkpoint are left out; train_losses returned)
import torch
from torch import nn
from torch import optim


def train(model, train_input, train_target, optimizer, criterion, nb_epochs=25, mini_batch_size=50):
    """
    Train model
    """
    train_losses = []
    for epoch in range(nb_epochs):
        train_loss_e = 0
        num_batches = 0
        model.train()
        # train batch
        for b in range(0, train_input.size(0), mini_batch_size):
            # Forward step
            output = model(train_input.narrow(0, b, mini_batch_size))
            # Compute the Loss
            loss = criterion(output, train_target.narrow(0, b, mini_batch_size))

            # Backward step
            model.zero_grad()
            loss.backward()
            # Update the Gradient
            optimizer.step()
            # Collect the Losses
            train_loss_e += loss.data.item()
            num_batches += 1
        train_loss = train_loss_e / num_batches
        train_losses.append(train_loss)

    return train_losses


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    criterion = nn.CrossEntropyLoss()
    optimizer = optim.Adam(model.parameters(), lr=lr, weight_decay=0.1)
    return train(model, ids, labels, optimizer, criterion, nb_epochs=epochs, mini_batch_size=50)
