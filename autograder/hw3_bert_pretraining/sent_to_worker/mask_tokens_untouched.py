"""Sent by test_mask_tokens.py: does mask_tokens leave its input ids alone and answer
new arrays? Runs in the worker, around the student's function."""

import numpy as np


def run(f, ids, *args, **kwargs):
    original = ids.copy()
    out = f(ids, *args, **kwargs)
    answered = (isinstance(out, tuple) and len(out) == 2
                and all(isinstance(o, np.ndarray) for o in out))
    shared = answered and any(np.shares_memory(o, ids) for o in out)
    # a constant answer (zeros, ones everywhere) labels nothing real
    constant = answered and all(np.unique(o).size < 2 for o in out)
    labelled = answered and not constant and bool((out[1] >= 0).any())
    return answered, labelled, bool(np.array_equal(ids, original)), bool(shared)
