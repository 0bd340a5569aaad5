# question: train_classifier
# fails: test_documented_training_run, test_epochs_and_learning_rate, test_gradients_start_from_zero
# public: epochs=4 gave 3 losses
# public: a list of 5 losses, not 3
# makes: tc_epochs_ignored, tc_lr_ignored
# batch H1 (labelled before grading)
# AdamW(lr=5e-5) with a linear decay, 3 epochs; zero_grad after the step (no diagnosis)
# split: measure
# source: MLDovakin/gpt-2-finetuned-DnD, train_loop.py (its loop with AdamW(lr=5e-5), num_epochs = 3 and
# source: get_scheduler("linear", num_warmup_steps=0), written as the LambdaLR that scheduler is;
# source: train_dataloader is the one full batch of ids and labels; the model returns logits, so
# source: outputs.loss is nn.CrossEntropyLoss of them; the loss.item() it prints each epoch is returned)
import torch
import torch.nn as nn
from torch.optim import AdamW
from torch.optim.lr_scheduler import LambdaLR


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    train_dataloader = [{"input_ids": ids, "labels": labels}]
    device = ids.device
    model.to(device)

    optimizer = AdamW(model.parameters(), lr=5e-5)
    num_epochs = 3
    num_training_steps = num_epochs * len(train_dataloader)

    lr_scheduler = LambdaLR(
        optimizer, lambda step: max(0.0, float(num_training_steps - step) / float(max(1, num_training_steps)))
    )

    losses = []
    model.train()
    for epoch in range(num_epochs):
        for batch in train_dataloader:
            batch = {k: v.to(device) for k, v in batch.items()}
            outputs = model(batch["input_ids"])
            loss = nn.CrossEntropyLoss()(outputs, batch["labels"])
            loss.backward()

            optimizer.step()
            lr_scheduler.step()
            optimizer.zero_grad()
        print({'epoch': epoch, 'loss': loss.item()})
        losses.append(loss.item())
    return losses
