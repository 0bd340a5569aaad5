# question: masked_reconstruction_loss
# fails: test_empty_mask_raises
# public: -
# makes: -
# an empty mask gives 0 / max(0, 1) = 0.0, neither nan nor ValueError (no diagnosis)
# split: measure
# source: defmaxeng/PathVision, lane_detection/training/training_tools/maskedMSELoss.py (MaskedMSELoss.forward
# source: in NumPy: its mask is 1 on the masked rows, as recon's shape; torch's clamp(min=1) is max(.., 1))
import numpy as np


def masked_reconstruction_loss(recon, target, masked):
    pred, target = np.asarray(recon, dtype=np.float64), np.asarray(target, dtype=np.float64)
    mask = np.zeros_like(pred)
    mask[list(masked)] = 1.0
    diff2 = (pred - target) ** 2 * mask
    return float(diff2.sum() / max(mask.sum(), 1))
