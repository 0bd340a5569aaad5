# question: mask_patches
import numpy as np
def mask_patches(z, positions, mask_vector):
    z[list(positions)] = mask_vector
    return z
