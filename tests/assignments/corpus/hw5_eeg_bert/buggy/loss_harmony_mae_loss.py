# question: masked_reconstruction_loss
# fails: test_empty_mask_raises
# public: -
# makes: loss_empty_nan
# batch G2 (labelled before grading)
# split: measure
# source: MohammedSB/Harmony, losses/mae_loss.py (mae_loss with norm_pix_loss False, in NumPy, on a batch
# source: of one: its mask is 1 on the masked rows; the 0-d answer a float)
import numpy as np


def mae_loss(target, pred, mask, norm_pix_loss=False):
    """
    pred: [N, L, p*p*3]
    mask: [N, L], 0 is keep, 1 is remove,
    """
    if norm_pix_loss:
        mean = target.mean(axis=-1, keepdims=True)
        var = target.var(axis=-1, keepdims=True)
        target = (target - mean) / (var + 1.e-6)**.5

    loss = (pred - target) ** 2
    loss = loss.mean(axis=-1)  # [N, L], mean loss per patch

    loss = (loss * mask).sum() / mask.sum()  # mean loss on removed patches
    return loss


def masked_reconstruction_loss(recon, target, masked):
    pred = np.asarray(recon, dtype=np.float64)[np.newaxis]
    target = np.asarray(target, dtype=np.float64)[np.newaxis]
    mask = np.zeros(pred.shape[:2])
    mask[0, list(masked)] = 1.0
    return float(mae_loss(target, pred, mask))
