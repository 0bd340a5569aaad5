# question: train_classifier
# fails: test_returns_one_loss_per_epoch, test_documented_training_run, test_epochs_and_learning_rate, test_gradients_start_from_zero
# public: epochs=4 gave 1 losses
# public: a list of 5 losses, not 1
# makes: tc_lr_ignored, tc_loss_after_step
# batch H1 (labelled before grading)
# AdamW(lr=5e-5, weight_decay=0.1) written in, the loss measured again (in eval mode) after
# the step, and only every 50th step (no diagnosis for the count)
# split: measure
# source: rasbt/LLMs-from-scratch, ch06/01_main-chapter-code/gpt_class_finetune.py (train_classifier_simple,
# source: evaluate_model, calc_loss_loader and calc_loss_batch with the optimizer its script builds,
# source: AdamW(lr=5e-5, weight_decay=0.1), eval_freq=50 and eval_iter=5; both loaders are the one full
# source: batch [(ids, labels)], device the ids'; the model already returns the [CLS] logits, so
# source: calc_loss_batch's [:, -1, :] is left out; the accuracies it prints left out; train_losses returned)
import torch


def calc_loss_batch(input_batch, target_batch, model, device):
    input_batch, target_batch = input_batch.to(device), target_batch.to(device)
    logits = model(input_batch)
    loss = torch.nn.functional.cross_entropy(logits, target_batch)
    return loss


def calc_loss_loader(data_loader, model, device, num_batches=None):
    total_loss = 0.
    if len(data_loader) == 0:
        return float("nan")
    elif num_batches is None:
        num_batches = len(data_loader)
    else:
        num_batches = min(num_batches, len(data_loader))
    for i, (input_batch, target_batch) in enumerate(data_loader):
        if i < num_batches:
            loss = calc_loss_batch(input_batch, target_batch, model, device)
            total_loss += loss.item()
        else:
            break
    return total_loss / num_batches


def evaluate_model(model, train_loader, val_loader, device, eval_iter):
    model.eval()
    with torch.no_grad():
        train_loss = calc_loss_loader(train_loader, model, device, num_batches=eval_iter)
        val_loss = calc_loss_loader(val_loader, model, device, num_batches=eval_iter)
    model.train()
    return train_loss, val_loss


def train_classifier_simple(model, train_loader, val_loader, optimizer, device, num_epochs,
                            eval_freq, eval_iter):
    # Initialize lists to track losses and tokens seen
    train_losses, val_losses = [], []
    examples_seen, global_step = 0, -1

    # Main training loop
    for epoch in range(num_epochs):
        model.train()  # Set model to training mode

        for input_batch, target_batch in train_loader:
            optimizer.zero_grad()  # Reset loss gradients from previous batch iteration
            loss = calc_loss_batch(input_batch, target_batch, model, device)
            loss.backward()  # Calculate loss gradients
            optimizer.step()  # Update model weights using loss gradients
            examples_seen += input_batch.shape[0]  # New: track examples instead of tokens
            global_step += 1

            # Optional evaluation step
            if global_step % eval_freq == 0:
                train_loss, val_loss = evaluate_model(
                    model, train_loader, val_loader, device, eval_iter)
                train_losses.append(train_loss)
                val_losses.append(val_loss)
                print(f"Ep {epoch+1} (Step {global_step:06d}): "
                      f"Train loss {train_loss:.3f}, Val loss {val_loss:.3f}")

    return train_losses, val_losses, examples_seen


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-5, weight_decay=0.1)
    loader = [(ids, labels)]
    train_losses, val_losses, examples_seen = train_classifier_simple(
        model, loader, loader, optimizer, ids.device,
        num_epochs=epochs, eval_freq=50, eval_iter=5)
    return train_losses
