# question: mask_patches
# fails: test_input_not_modified
# public: modified its input z
import numpy as np
def mask_patches(z, positions, mask_vector):
    z[list(positions)] = mask_vector
    return z
