# question: train_classifier
# fails: test_returns_one_loss_per_epoch, test_documented_training_run, test_epochs_and_learning_rate, test_trains_the_given_model, test_gradients_start_from_zero
# public: NameError
# makes: tc_sgd, tc_epochs_ignored, tc_lr_ignored
# batch I1 (labelled before grading; split by sha1 of the stem, the first half measured)
# SGD(lr=0.01, momentum=0.07), 100 epochs; also `it` is never defined, so every call raises
# NameError after the first step, and a NumPy array would be returned (no diagnosis)
# split: measure
# source: VedangAsgaonkar/Machine-Learning-Notes, PyTorch_Basic_Loop.md (its basic loop as the stub: model,
# source: inputs and targets are the stub's model, ids and labels, its MSELoss the task's CrossEntropyLoss;
# source: the test-set lines left out, there being no test set; train_losses returned)
import numpy as np
import torch
import torch.nn as nn


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    inputs, targets = ids, labels
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.07)
    n_epochs = 100
    train_losses = np.zeros(n_epochs)
    for i in range(n_epochs):
        optimizer.zero_grad()
        outputs = model(inputs)
        loss = criterion(outputs, targets)
        loss.backward()
        optimizer.step()
        train_losses[it] = loss.item()
        print(f'Epoch {it+1}/{n_epochs}, Train Loss: {loss.item():.4f}')
    return train_losses
