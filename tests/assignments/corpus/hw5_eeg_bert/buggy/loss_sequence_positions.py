# question: masked_reconstruction_loss
# fails: test_ignores_unmasked_rows
# public: rows 0 and 2 have MSEs 1 and 5
# public: row 1 is not masked: it must not count
# diagnosis: loss_shifted_for_cls
import numpy as np
def masked_reconstruction_loss(recon, target, masked):
    idx = np.asarray(masked, dtype=int) - 1  # subtracts the [CLS] offset a second time
    if idx.size == 0:
        raise ValueError("empty")
    return float(np.mean((recon[idx] - target[idx]) ** 2))
