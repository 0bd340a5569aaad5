# question: key_padding_mask
# fails: test_type_shape_dtype, test_values, test_accepts_integer_array
# diagnosis: mask_boolean
# An additive mask of True/False: not float64, hides nothing when added to scores.
import numpy as np


def key_padding_mask(lengths, n_src):
    """True where the position is padding."""
    lengths = np.asarray(lengths)
    if lengths.min() < 1 or lengths.max() > n_src:
        raise ValueError("lengths must lie in [1, n_src]")
    return np.arange(n_src)[None, :] >= lengths[:, None]
