# question: train_classifier
# fails: test_returns_one_loss_per_epoch, test_documented_training_run, test_epochs_and_learning_rate
# public: epochs=4 gave 10 losses
# public: list of 5 losses, not 10
# makes: tc_epochs_ignored, tc_lr_ignored
# batch G1 (labelled before grading)
# Adam(lr=0.001), 10 epochs
# split: measure
# source: devastate347/ASLtranslator, datasetAI/modelTraining.py (its loop as the stub: train_loader is the
# source: one full batch [(ids, labels)]; the running_loss it keeps each epoch is returned, as the stub
# source: returns the epochs' losses)
import torch.nn as nn
import torch.optim as optim


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    train_loader = [(ids, labels)]
    history = []

    criterion = nn.CrossEntropyLoss() # Loss function
    optimizer = optim.Adam(model.parameters(), lr=0.001) # Optimizer

    for epoch in range(10): # Number of epochs
        running_loss = 0.0
        for i, data in enumerate(train_loader, 0):
            inputs, labels = data

            optimizer.zero_grad()

            outputs = model(inputs)
            loss = criterion(outputs, labels)
            loss.backward()
            optimizer.step()

            running_loss += loss.item()
            if i % 200 == 199: # Print loss every 200 batches
                print('[%d, %5d] loss: %.3f' % (epoch + 1, i + 1, running_loss / 200))
                running_loss = 0.0
        history.append(running_loss)
    return history
