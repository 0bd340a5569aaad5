# question: masked_reconstruction_loss
# fails: test_empty_mask_raises
# public: -
# diagnosis: loss_asserted
import numpy as np


def masked_reconstruction_loss(recon, target, masked):
    rows = list(masked)
    assert len(rows) > 0, "no masked rows"
    diff = np.asarray(recon, dtype=np.float64)[rows] - np.asarray(target, dtype=np.float64)[rows]
    return float(np.mean((diff ** 2).mean(axis=-1)))
