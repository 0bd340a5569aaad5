# question: train_classifier
# fails: test_returns_one_loss_per_epoch
# public: each loss should be a float
# makes: tc_loss_tensors
# batch E
# split: measure
# source: moritzwassmer/APPRAS_e2e_imitation, models/trainmodel.py (the script's loop in the stub:
# source: its epochs=500 and lr=0.01 are the arguments, X_train and y_train ids and labels)
import torch
import torch.nn as nn


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    X_train, y_train = ids, labels

    loss_function = nn.CrossEntropyLoss()  # or MSE makes more sense?

    optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    final_losses = []

    for i in range(epochs):

        i = i + 1

        y_pred = model.forward(X_train)

        loss = loss_function(y_pred, y_train)

        final_losses.append(loss)

        # if i % 10 == 1:

        # print("Epoch number: {} and the loss : {}".format(i,loss.item()))

        optimizer.zero_grad()

        loss.backward()

        optimizer.step()

    return final_losses
