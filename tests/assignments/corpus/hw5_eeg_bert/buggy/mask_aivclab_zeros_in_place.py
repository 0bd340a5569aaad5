# question: mask_patches
# fails: test_replaces_masked_rows, test_input_not_modified
# public: should equal the mask vector
# makes: -
# batch G4 (labelled before grading)
# zero rows (mask_vector never read) written into z itself (no diagnosis)
# split: measure
# source: aivclab/vision, neodroidvision/utilities/torch_utilities/patches/ndim/sampling.py
# source: (mask_patches in NumPy on z as a batch of one: its random boolean selection is True at the
# source: given positions; torch.zeros(..., dtype=torch.int) is np.zeros(..., dtype=int); the stub's
# source: mask_vector is taken and never read)
import numpy as np


def mask_patches(z, positions, mask_vector):
    x = np.asarray(z)[np.newaxis]
    prob = np.zeros(x.shape[:2], dtype=bool)
    prob[0, list(positions)] = True
    x[prob] = np.zeros(x.shape[2:], dtype=int)
    return x[0]
