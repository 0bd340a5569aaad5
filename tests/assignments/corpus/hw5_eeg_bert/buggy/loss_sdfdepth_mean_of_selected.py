# question: masked_reconstruction_loss
# fails: test_empty_mask_raises
# public: -
# makes: loss_empty_nan
# source: luca-commits/3DV-sdfdepth, projLib/loss.py (masked_mse_loss in NumPy: output[mask] with the
# source: masked row indices as its mask; the 0-d answer a float)
import numpy as np


def masked_mse_loss(output, target, mask):
    out = np.square(np.subtract(output[mask], target[mask]))
    loss = out.mean()
    return loss


def masked_reconstruction_loss(recon, target, masked):
    rows = np.asarray(list(masked), dtype=np.int64)
    return float(masked_mse_loss(np.asarray(recon, dtype=np.float64), np.asarray(target, dtype=np.float64), rows))
