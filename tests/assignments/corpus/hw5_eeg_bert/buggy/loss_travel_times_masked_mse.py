# question: masked_reconstruction_loss
# fails: test_empty_mask_raises
# public: -
# makes: loss_empty_nan
# batch F (labelled before grading)
# split: measure
# source: zackAemmer/generalizable_travel_times, src/models/masked_loss.py (MaskedMSELoss.forward in
# source: NumPy: its mask is 1 on the masked rows, as recon's shape; MSELoss(reduction='none') is the
# source: elementwise squared error, and the 0-d answer a float)
import numpy as np


def masked_reconstruction_loss(recon, target, masked):
    input = np.asarray(recon, dtype=np.float64)
    target = np.asarray(target, dtype=np.float64)
    mask = np.zeros_like(input)
    mask[list(masked)] = 1
    loss = (input - target) ** 2
    loss = (loss * mask.astype(float)).sum()
    num_non_padded = mask.astype(float).sum()
    loss = loss / num_non_padded
    return float(loss)
