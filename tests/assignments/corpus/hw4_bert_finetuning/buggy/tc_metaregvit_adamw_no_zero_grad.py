# question: train_classifier
# fails: test_returns_one_loss_per_epoch, test_documented_training_run, test_epochs_and_learning_rate, test_gradients_start_from_zero
# public: epochs=4 gave 20 losses
# public: list of 5 losses, not 20
# makes: tc_no_zero_grad, tc_epochs_ignored, tc_lr_ignored
# batch G1 (labelled before grading)
# AdamW(lr=3e-4), 20 epochs, never zero_grad
# split: measure
# source: SazzadSH/MetaRegViT, pre-training_on_base.py (its standard classification training as the stub:
# source: base_dataloader is the one full batch [(ids, labels)]; each epoch's loss.item() recorded, as the
# source: stub returns them)
import torch
import torch.nn as nn


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    base_dataloader = [(ids, labels)]
    losses = []

    # Standard classification training
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    loss_fn = nn.CrossEntropyLoss()

    for epoch in range(20):
        for images, labels in base_dataloader:
            outputs = model(images)
            loss = loss_fn(outputs, labels)
            loss.backward()
            optimizer.step()
        losses.append(loss.item())
    return losses
