# question: train_classifier
# fails: test_returns_one_loss_per_epoch, test_documented_training_run, test_epochs_and_learning_rate, test_gradients_start_from_zero
# public: return a list, not a ndarray
# public: a list of 5 losses, not array
# makes: tc_lr_ignored
# batch H1 (labelled before grading)
# Adam(model.parameters()): its default 1e-3; also a NumPy array returned (no diagnosis)
# split: measure
# source: MNayyal/From-Scratch-Building-a-Transformer-for-Text-Classification, from_scratch_transformers.py
# source: (train with the criterion and optimizer its script builds, nn.CrossEntropyLoss() and
# source: torch.optim.Adam(model.parameters()); train_loader is the one full batch of ids and labels as
# source: its dict batches, the model called on the ids alone; no validation set, so its valid pass is
# source: left out; train_losses returned)
import numpy as np
import torch
import torch.nn as nn


def train(model, criterion, optimizer, train_loader, epochs):
    train_losses = np.zeros(epochs)

    for it in range(epochs):
        model.train()
        train_loss = 0
        n_train = 0

        for batch in train_loader:
            optimizer.zero_grad()

            outputs = model(batch['input_ids'])
            loss = criterion(outputs, batch['labels'])

            loss.backward()
            optimizer.step()

            train_loss += loss.item() * batch['input_ids'].size(0)
            n_train += batch['input_ids'].size(0)

        train_loss = train_loss / n_train
        train_losses[it] = train_loss

        print(f'Epoch {it+1}/{epochs}, Train Loss: {train_loss:.4f}')

    return train_losses


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters())
    return train(model, criterion, optimizer, [{'input_ids': ids, 'labels': labels}], epochs)
