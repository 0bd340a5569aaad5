"""Sent by test_mask_patches.py: is the array the student's mask_patches received left
alone, and is its answer a new array?"""

import numpy as np


def probe(mask_patches):
    z = np.arange(36, dtype=np.float64).reshape(9, 4)
    before = z.copy()
    out = mask_patches(z, [4, 8], np.full(4, -1.0))
    return bool(np.array_equal(z, before)), out is z, out
