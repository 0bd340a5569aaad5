# question: mask_patches
# fails: test_input_not_modified
# public: modified its input z
# makes: -
# batch G2 (labelled before grading)
# writes into z itself and returns it (no diagnosis)
# split: measure
# source: schmidtkk/fomo25-baseline-mae, src/augmentations/mask.py (random_mask: its boolean mask,
# source: drawn by generate_random_mask, is True at the given positions; mask_token is mask_vector;
# source: the stub returns x, not the mask beside it)
import numpy as np


def mask_patches(z, positions, mask_vector):
    x = z
    mask = np.zeros(len(x), dtype=bool)
    mask[list(positions)] = True
    x[mask] = mask_vector
    return x
