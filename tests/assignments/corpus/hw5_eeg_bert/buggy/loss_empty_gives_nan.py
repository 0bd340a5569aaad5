# question: masked_reconstruction_loss
# fails: test_empty_mask_raises
# public: -
# diagnosis: loss_empty_nan
import numpy as np
def masked_reconstruction_loss(recon, target, masked):
    idx = np.asarray(masked, dtype=int)
    with np.errstate(invalid="ignore"):
        return float(np.mean((recon[idx] - target[idx]) ** 2)) if idx.size else float("nan")
