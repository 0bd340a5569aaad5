# question: masked_reconstruction_loss
# fails: test_empty_mask_raises
# public: -
# makes: -
# batch G2 (labelled before grading)
# an empty mask gives 0.0, neither nan nor ValueError (no diagnosis)
# split: measure
# source: octopifriends/gfms-from-scratch.github.io, geogfm/modules/losses/mae_loss.py (masked_mse_loss in
# source: NumPy on a batch of one, its (C, P, P) patch already flat: its mask is True on the masked
# source: rows; the 0-d answer a float)
import numpy as np


def masked_mse_loss(pred, target, mask):
    b, n = pred.shape[:2]
    pred = pred.reshape(b, n, -1)
    target = target.reshape(b, n, -1)
    mask = mask.astype(bool)  # (B, N)
    diff = pred[mask] - target[mask]  # -> (num_masked, C*P*P)
    if diff.size == 0:
        return np.array(0.0)
    return (diff ** 2).mean()


def masked_reconstruction_loss(recon, target, masked):
    pred = np.asarray(recon, dtype=np.float64)[np.newaxis]
    target = np.asarray(target, dtype=np.float64)[np.newaxis]
    mask = np.zeros(pred.shape[:2], dtype=bool)
    mask[0, list(masked)] = True
    return float(masked_mse_loss(pred, target, mask))
