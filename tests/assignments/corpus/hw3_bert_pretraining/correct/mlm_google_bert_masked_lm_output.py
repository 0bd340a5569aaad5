# question: mlm_loss
# split: measure
# source: google-research/bert, run_pretraining.py (get_masked_lm_output's loss, TensorFlow written as
# source: torch: the logits are given; label_weights are 1 where the label is not -100; tf.one_hot of
# source: a -100 label, a row of zeros, written as a comparison with the class indices)
import torch


def mlm_loss(logits, labels):
    log_probs = torch.log_softmax(logits, dim=-1)
    label_ids = labels.reshape(-1)
    label_weights = (label_ids != -100).to(log_probs.dtype)
    log_probs = log_probs.reshape(-1, log_probs.shape[-1])

    one_hot_labels = (label_ids.unsqueeze(-1) == torch.arange(log_probs.shape[-1])).to(log_probs.dtype)

    # The `positions` tensor might be zero-padded (if the sequence is too
    # short to have the maximum number of predictions). The `label_weights`
    # tensor has a value of 1.0 for every real prediction and 0.0 for the
    # padding predictions.
    per_example_loss = -torch.sum(log_probs * one_hot_labels, dim=-1)
    numerator = torch.sum(label_weights * per_example_loss)
    denominator = torch.sum(label_weights) + 1e-5
    loss = numerator / denominator
    return loss
