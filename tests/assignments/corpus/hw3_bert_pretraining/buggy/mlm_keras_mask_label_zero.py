# question: mlm_loss
# fails: test_matches_cross_entropy, test_ignored_positions_do_not_count
# public: labels -100 do not count
# makes: mlm_mean_over_all
# batch E
# Keras's ignored label 0 (no diagnosis) and a mean over every position
# split: measure
# source: cccwam/ift6759-project2-public, libs/losses.py (mlm_loss, first version: Keras's
# source: SparseCategoricalCrossentropy(from_logits=True, reduction='none') written as torch's)
import torch
import torch.nn.functional as F


def mlm_loss(logits, labels):
    mask = torch.logical_not(torch.eq(labels, 0))
    loss_ = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1),
                            reduction='none').reshape(labels.shape)
    mask = mask.to(loss_.dtype)
    loss_ = loss_ * mask
    return torch.mean(loss_)
