# question: key_padding_mask
# fails: test_values
# diagnosis: mask_from_table
# One table of 512 positions built once and sliced: right for every n_src a
# course's skeleton uses, short for longer sources.
import numpy as np

_POSITIONS = np.arange(512)


def key_padding_mask(lengths, n_src):
    lengths = np.asarray(lengths)
    if lengths.ndim != 1 or lengths.min() < 1 or lengths.max() > n_src:
        raise ValueError("lengths must lie in [1, n_src]")
    padding = _POSITIONS[None, :n_src] >= lengths[:, None]
    return np.where(padding, -np.inf, 0.0)
