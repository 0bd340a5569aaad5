# question: train_classifier
# fails: test_documented_training_run
# public: -
# makes: tc_sgd
# batch E
# split: measure
# source: pytorch/tutorials, beginner_source/basics/quickstart_tutorial.py (train and its epochs loop: the
# source: dataloader is the one full batch [(ids, labels)], its SGD's lr=1e-3 the lr given; train returns
# source: its loss, which the print branch made loss.item(), and the loop keeps one per epoch)
import torch
from torch import nn


def train(dataloader, model, loss_fn, optimizer):
    size = sum(len(X) for X, _ in dataloader)
    for batch, (X, y) in enumerate(dataloader):
        # Compute prediction error
        pred = model(X)
        loss = loss_fn(pred, y)

        # Backpropagation
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

        if batch % 100 == 0:
            loss, current = loss.item(), batch * len(X)
            print(f"loss: {loss:>7f}  [{current:>5d}/{size:>5d}]")
    return loss


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    loss_fn = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    losses = []
    for t in range(epochs):
        print(f"Epoch {t+1}\n-------------------------------")
        losses.append(train([(ids, labels)], model, loss_fn, optimizer))
    print("Done!")
    return losses
