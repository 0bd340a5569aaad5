# question: mask_patches
# fails: test_replaces_masked_rows
# public: -
# diagnosis: mask_added
import numpy as np
def mask_patches(z, positions, mask_vector):
    out = z.copy()
    out[list(positions)] += mask_vector
    return out
