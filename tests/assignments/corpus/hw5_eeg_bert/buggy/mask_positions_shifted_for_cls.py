# question: mask_patches
# fails: test_replaces_masked_rows
# public: rows 1 and 3 should equal the mask vector
# diagnosis: mask_shifted_for_cls
import numpy as np
def mask_patches(z, positions, mask_vector):
    out = z.copy()
    for p in positions:
        out[p - 1] = mask_vector  # treats positions as patch numbers after [CLS]
    return out
