# question: mlm_loss
# fails: test_large_logits_stay_finite
# public: -
# makes: -
# batch blind-H2 (labelled before grading)
# -log(softmax + 1e-10), mean over the targets, 0 when none: capped near 23 for a target
# whose probability underflows (no diagnosis; mlm_log_of_softmax's log 0 = -inf never
# happens)
# split: measure
# source: Ryanakml/BERT, python/pretrain.py (compute_loss's MLM part: the model's mlm_probs are
# source: softmax(logits) over the flattened positions, np.log torch.log, -100 where it reads -1, the
# source: labels already ids; the sum returned as a tensor)
import torch


def mlm_loss(logits, labels):
    mlm_probs = torch.softmax(logits.reshape(-1, logits.shape[-1]), dim=-1)
    mlm_labels = labels.reshape(-1).tolist()

    # MLM loss: only for masked positions
    mlm_loss = 0
    mask_count = 0

    for i, label in enumerate(mlm_labels):
        if label != -100:  # If this position was masked
            label_id = label
            mlm_loss -= torch.log(mlm_probs[i, label_id] + 1e-10)
            mask_count += 1

    if mask_count > 0:
        mlm_loss /= mask_count

    return torch.as_tensor(mlm_loss, dtype=logits.dtype)
