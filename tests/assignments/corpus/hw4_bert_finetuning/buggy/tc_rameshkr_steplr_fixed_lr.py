# question: train_classifier
# fails: test_documented_training_run, test_epochs_and_learning_rate
# public: -
# makes: tc_lr_ignored
# batch I1 (labelled before grading; split by sha1 of the stem, the first half measured)
# Adam(lr=0.001) written in, then StepLR(step_size=5, gamma=0.1): from the sixth epoch on
# the rate is a tenth of it (no diagnosis for the schedule)
# source: rameshkrcode/AI-Assisted-Programming-for-Web-and-Machine-Learning,
# source: Chapter_08/Code/torch_training_loop.py (its loop as the stub: train_loader is the one full batch
# source: [(ids, labels)]; the loss of each epoch is returned, as the stub returns the epochs' losses)
import torch
import torch.nn as nn
import torch.optim as optim


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    train_loader = [(ids, labels)]
    history = []
    # Define loss function, optimizer, and learning rate scheduler
    criterion = nn.CrossEntropyLoss()
    optimizer = optim.Adam(model.parameters(), lr=0.001)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=5, gamma=0.1)
    # Training loop
    for epoch in range(epochs):
        model.train()  # Set model to training mode
        for batch in train_loader:
            inputs, labels = batch
            optimizer.zero_grad()
            outputs = model(inputs)
            loss = criterion(outputs, labels)
            loss.backward()
            optimizer.step()
        # Adjust learning rate at the end of each epoch
        scheduler.step()
        history.append(loss.item())
    return history
