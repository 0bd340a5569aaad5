# question: train_classifier
# fails: test_documented_training_run, test_epochs_and_learning_rate
# public: epochs=4 gave 3 losses
# public: list of 5 losses, not 3
# makes: tc_epochs_ignored, tc_lr_ignored
# batch G1 (labelled before grading)
# AdamW(lr=1e-5), 3 epochs
# split: measure
# source: martinyanev94/zig-containers-essentials,
# source: Lesson_40_Advanced_Techniques_in_Text_Based_Embeddings/part_2_train_bert_classifier.py (its loop as
# source: the stub: train_loader is the one full batch of ids and labels, the model's logits scored with
# source: nn.CrossEntropyLoss as BertForSequenceClassification's outputs.loss does; the loss.item() it prints
# source: each epoch is returned)
import torch
import torch.nn as nn


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    train_loader = [{'input_ids': ids, 'label': labels}]
    loss_fct = nn.CrossEntropyLoss()
    losses = []

    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)

    model.train()
    for epoch in range(3):  # Train for 3 epochs
        for batch in train_loader:
            optimizer.zero_grad()
            input_ids = batch['input_ids']
            labels = batch['label']
            outputs = model(input_ids)
            loss = loss_fct(outputs, labels)
            loss.backward()
            optimizer.step()
            print(f"Epoch: {epoch}, Loss: {loss.item()}")
        losses.append(loss.item())
    return losses
