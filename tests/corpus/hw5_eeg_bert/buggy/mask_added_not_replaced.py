# question: mask_patches
import numpy as np
def mask_patches(z, positions, mask_vector):
    out = z.copy()
    out[list(positions)] += mask_vector
    return out
