# question: masked_reconstruction_loss
# fails: test_ignores_unmasked_rows
# public: rows 0 and 2 have MSEs 1 and 5
# public: row 1 is not masked: it must not count
# diagnosis: loss_all_rows
import numpy as np
def masked_reconstruction_loss(recon, target, masked):
    """Mistake: every row counts, masked or not."""
    if len(masked) == 0:
        raise ValueError("empty")
    return float(np.mean((recon - target) ** 2))
