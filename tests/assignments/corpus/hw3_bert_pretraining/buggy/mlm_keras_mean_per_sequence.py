# question: mlm_loss
# fails: test_matches_cross_entropy, test_leading_dimensions, test_ignored_positions_do_not_count
# public: labels -100 do not count
# makes: mlm_nan_when_nothing, mlm_mean_over_all
# batch E
# a mean per sequence (no diagnosis), NaN where nothing is selected; Keras's ignored
# label 0, so the -100 positions count, as in mlm_keras_mask_label_zero (seen since
# the tests call it at the lesson's rank: its sums over dim 1 raised at (N, V))
# source: cccwam/ift6759-project2-public, libs/losses.py (mlm_loss, later version: Keras's
# source: SparseCategoricalCrossentropy(from_logits=True, reduction='none') written as torch's)
import torch
import torch.nn.functional as F


def mlm_loss(logits, labels):
    mask = torch.logical_not(torch.eq(labels, 0))  # Batch size * Seq Length
    loss_ = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1),
                            reduction='none').reshape(labels.shape)
    mask = mask.to(loss_.dtype)
    loss_ = loss_ * mask
    # Prevent averaging over non masked tokens
    numerator = torch.sum(loss_, dim=1)
    denominator = torch.sum(mask, dim=1)
    loss = numerator / denominator
    return torch.mean(loss)  # Average over samples
