# question: mlm_loss
# fails: test_nothing_selected_is_zero
# public: not nan
# makes: mlm_nan_when_nothing
# batch E
# source: WillardFord/ForgeFold, loss.py (mlm_loss_function: its mask, the positions that contribute,
# source: is the labels that are not -100, its ignore_index's default)
import torch
import torch.nn as nn


def mlm_loss_function(logits, labels, mask, ignore_index=-100):
    """
    logits: [B, L, V]
    labels: [B, L]
    mask:   [B, L]  boolean mask (True → this position should contribute to loss)
    """

    # Flatten all positions
    vocab_size = logits.size(-1)
    logits = logits.view(-1, vocab_size)       # [B*L, V]
    labels = labels.view(-1)                   # [B*L]
    mask = mask.view(-1)                       # [B*L]

    # Only keep the masked positions
    masked_logits = logits[mask]
    masked_labels = labels[mask]

    # Cross entropy across masked positions only
    loss_fct = nn.CrossEntropyLoss()
    loss = loss_fct(masked_logits, masked_labels)

    return loss


def mlm_loss(logits, labels):
    return mlm_loss_function(logits, labels, labels != -100)
