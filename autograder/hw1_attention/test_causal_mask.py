"""Hidden tests: causal_mask."""
import numpy as np
import torch

from autograder.testing import (as_array, expect_close, expect_dtype, expect_raises, expect_shape,
                                expect_tensor, fail)

QUESTION = "causal_mask"
ANSWER_BYTES = 1 << 16  # a mask of up to 40 x 40 in any dtype; a bigger answer stops the worker


def test_type_shape_dtype(student):
    """returns a float32 torch.Tensor of shape (n, n)"""
    for n in (1, 4, 9):
        what = f"causal_mask({n})"
        mask = expect_tensor(student.at_most(ANSWER_BYTES).causal_mask(n), what)
        expect_shape(mask, (n, n), what)
        expect_dtype(mask, torch.float32, what)


def test_values(student):
    """0 on and below the diagonal, -inf above, for n from 1 to 12 and 40"""
    for n in [*range(1, 13), 40]:
        what = f"causal_mask({n})"
        mask = expect_tensor(student.at_most(ANSWER_BYTES).causal_mask(n), what)
        expect_close(mask, torch.nn.Transformer.generate_square_subsequent_mask(n), what,
                     rtol=0, atol=0)


def test_rejects_invalid_n(student):
    """answers a valid n, and raises ValueError for n < 1 and for n that is not an int"""
    # Rejecting pays only beside an answer; the answer's values are test_values' subject.
    mask = expect_tensor(student.at_most(ANSWER_BYTES).causal_mask(5), "causal_mask(5)")
    expect_shape(mask, (5, 5), "causal_mask(5)")
    values = as_array(mask, "causal_mask(5)")
    if (values.dtype.kind == "f" and np.isnan(values).any()) or (values == values.flat[0]).all():
        fail("causal_mask(5): every entry is the same, or nan: such a mask hides nothing "
             "or everything")
    for bad in (0, -3, 2.5, "4", None):
        with expect_raises(ValueError, f"causal_mask({bad!r})"):
            student.causal_mask(bad)
