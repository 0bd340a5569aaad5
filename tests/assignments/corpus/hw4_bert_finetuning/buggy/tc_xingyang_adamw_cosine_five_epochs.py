# question: train_classifier
# fails: test_returns_one_loss_per_epoch, test_documented_training_run, test_epochs_and_learning_rate
# public: epochs=4 gave 5 losses
# makes: tc_epochs_ignored, tc_lr_ignored
# batch H1 (labelled before grading)
# AdamW(lr=2e-4) with a cosine schedule and clipping, 5 epochs
# split: measure
# source: XingYang21207454/Transformer-Model-Assignment-25120369, src/train.py (its training loop with
# source: its optimizer, scheduler and criterion: AdamW(lr=2e-4, weight_decay=1e-4), CosineAnnealingLR
# source: T_max=5, nn.CrossEntropyLoss; train_loader is the one full batch of ids and labels, the model
# source: called on the ids alone; no validation set, so the accuracy pass is left out; train_losses returned)
import torch
import torch.nn as nn
from torch.optim import AdamW
from torch.optim.lr_scheduler import CosineAnnealingLR


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    train_loader = [{"ids": ids, "labels": labels}]
    device = ids.device
    optimizer = AdamW(model.parameters(), lr=2e-4, weight_decay=1e-4)
    scheduler = CosineAnnealingLR(optimizer, T_max=5)
    criterion = nn.CrossEntropyLoss()

    train_losses = []

    for epoch in range(5):
        model.train()
        total_loss = 0
        for batch in train_loader:
            ids = batch["ids"].to(device)
            labels = batch["labels"].to(device)
            optimizer.zero_grad()
            logits = model(ids)
            loss = criterion(logits, labels)
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            total_loss += loss.item()
        scheduler.step()

        print(f"Epoch {epoch+1}: loss={total_loss/len(train_loader):.4f}")
        train_losses.append(total_loss/len(train_loader))

    return train_losses
