# question: masked_reconstruction_loss
# fails: test_values
# public: their mean is 3
# diagnosis: loss_sum_of_squares
import numpy as np
def masked_reconstruction_loss(recon, target, masked):
    idx = np.asarray(masked, dtype=int)
    if idx.size == 0:
        raise ValueError("empty")
    return float(np.mean(np.sum((recon[idx] - target[idx]) ** 2, axis=-1)))  # squared norm, not MSE
