# question: masked_reconstruction_loss
# fails: test_empty_mask_raises
# public: -
# makes: loss_empty_nan
# batch blind-H3 (labelled before grading)
# (loss * mask).sum() / mask.sum(): 0 / 0 when nothing is masked
# split: measure
# source: sami-bg/stable-SSL, stable_pretraining/losses/reconstruction.py (mae with norm_pix_loss False,
# source: in NumPy (dim= as axis=), on a batch of one: its mask is 1 on the masked rows; the 0-d
# source: answer a float)
import numpy as np


def mae(target, pred, mask, norm_pix_loss=False):
    if norm_pix_loss:
        mean = target.mean(axis=-1, keepdims=True)
        var = target.var(axis=-1, keepdims=True)
        target = (target - mean) / (var + 1.0e-6) ** 0.5

    loss = (pred - target) ** 2
    loss = loss.mean(axis=-1)  # [N, L], mean loss per patch

    loss = (loss * mask).sum() / mask.sum()  # mean loss on removed patches
    return loss


def masked_reconstruction_loss(recon, target, masked):
    pred = np.asarray(recon, dtype=np.float64)[np.newaxis]
    target = np.asarray(target, dtype=np.float64)[np.newaxis]
    mask = np.zeros(pred.shape[:2])
    mask[0, list(masked)] = 1.0
    return float(mae(target, pred, mask))
