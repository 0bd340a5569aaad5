# question: masked_reconstruction_loss
# fails: test_ignores_unmasked_rows
import numpy as np
def masked_reconstruction_loss(recon, target, masked):
    idx = np.asarray(masked, dtype=int) - 1  # subtracts the [CLS] offset a second time
    if idx.size == 0:
        raise ValueError("empty")
    return float(np.mean((recon[idx] - target[idx]) ** 2))
