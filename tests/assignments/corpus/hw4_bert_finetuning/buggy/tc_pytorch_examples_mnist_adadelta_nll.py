# question: train_classifier
# fails: test_documented_training_run
# public: the first loss should be the untrained model's
# makes: -
# batch H1 (labelled before grading)
# Adadelta(lr) with StepLR and nll_loss on the logits (not log-probabilities): none declared
# split: measure
# source: pytorch/examples, mnist/main.py (train and the loop of main: optimizer Adadelta(lr=args.lr)
# source: and StepLR(step_size=1, gamma=0.7) as main builds them, args.lr and args.epochs the stub's lr
# source: and epochs, log_interval 10; train_loader is the one full batch [(ids, labels)], device the
# source: ids'; the test pass left out, there is no test set; the loss.item() it prints is returned)
import torch.nn.functional as F
import torch.optim as optim
from torch.optim.lr_scheduler import StepLR


def train(log_interval, model, device, train_loader, optimizer, epoch, losses):
    model.train()

    for batch_idx, (data, target) in enumerate(train_loader):
        data, target = data.to(device), target.to(device)

        optimizer.zero_grad()

        output = model(data)
        loss = F.nll_loss(output, target)

        loss.backward()
        optimizer.step()

        if batch_idx % log_interval == 0:
            print('Train Epoch: {} \tLoss: {:.6f}'.format(epoch, loss.item()))
            losses.append(loss.item())


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    device = ids.device
    train_loader = [(ids, labels)]
    optimizer = optim.Adadelta(model.parameters(), lr=lr)
    scheduler = StepLR(optimizer, step_size=1, gamma=0.7)
    losses = []
    for epoch in range(1, epochs + 1):
        train(10, model, device, train_loader, optimizer, epoch, losses)
        scheduler.step()
    return losses
