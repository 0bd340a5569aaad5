"""Hidden tests: causal_mask."""
import numpy as np
import torch

from autograder.testing import (StudentError, as_array, expect_close, expect_dtype, expect_raises,
                                expect_shape, expect_tensor, fail, format_test, once)

QUESTION = "causal_mask"
ANSWER_BYTES = 1 << 16  # a mask of up to 40 x 40 in any dtype; a bigger answer stops the worker
SIZES = [*range(1, 13), 40]
LARGE = 513  # one past the 512 x 512 table a solution may build once and slice: the
# smallest n that catches it (a mask filled entry by entry costs n^2 / 2 Python steps)
LARGE_BYTES = 4 << 20  # a 513 x 513 mask in float64 is 2.1 MB
LARGE_SECONDS = 60  # a correct mask filled entry by entry in Python: 0.4 s at n = 513, unloaded
# (n = 2,100, beyond a 2,048 table, is out of reach: such a loop takes 40 s there
# unloaded, several times that on a loaded grader.)


def _answers(student) -> dict:
    """{n: causal_mask(n), or the StudentError it raised} for every n of SIZES, asked
    once per submission: test_type_shape_dtype, test_values,
    test_masked_value_is_minus_inf and test_large_n each judge them in their own way."""
    def ask():
        answers = {}
        for n in SIZES:
            try:
                answers[n] = student.at_most(ANSWER_BYTES).causal_mask(n)
            except StudentError as err:  # raised again where a test reads this n
                answers[n] = err
        return answers
    return student.shared("causal_mask(n) for SIZES", ask)


def _mask(student, n):
    """The mask as an array of shape (n, n), whatever its type (the type test's subject)."""
    what = f"causal_mask({n})"
    answer = _answers(student)[n]
    if isinstance(answer, StudentError):
        raise answer
    values = as_array(answer, what)
    expect_shape(values, (n, n), what)
    return values, what


@format_test
def test_type_shape_dtype(student):
    """returns a float32 torch.Tensor of shape (n, n)"""
    for n in (1, 4, 9):  # of SIZES: the answers the other tests judge, asked once
        what = f"causal_mask({n})"
        answer = _answers(student)[n]
        if isinstance(answer, StudentError):
            raise answer
        mask = expect_tensor(answer, what)
        expect_shape(mask, (n, n), what)
        expect_dtype(mask, torch.float32, what)


def test_values(student):
    """masks exactly the keys after the query: 0 on and below the diagonal, not 0 above, n from 1 to 12 and 40"""
    # Which entries are masked is this test's subject; that the masked value is -inf is
    # test_masked_value_is_minus_inf's, so a -1e9 mask loses only that test.
    for n in SIZES:
        values, what = _mask(student, n)
        masked = np.asarray(values != 0)  # nan counts as masked, and fails the other test
        after = np.triu(np.ones((n, n), dtype=bool), 1)  # key j after query i
        if (masked & ~after).any():
            i, j = np.argwhere(masked & ~after)[0]
            fail(f"{what}: entry ({i}, {j}) is {float(values[i, j])!r}, not 0, so query {i} "
                 f"cannot see key {j} <= {i}")
        if (after & ~masked).any():
            i, j = np.argwhere(after & ~masked)[0]
            fail(f"{what}: entry ({i}, {j}) is 0, so query {i} sees key {j}, which comes after it")


def test_masked_value_is_minus_inf(student):
    """every entry of the mask is 0 or -inf (not a large negative number), with both present"""
    # Judged on the student's own masks, so entries masked in the wrong places (test_values'
    # subject) do not fail this test too.
    for n in SIZES:
        values, what = _mask(student, n)
        values = values.astype(np.float64)
        if not np.all((values == 0) | (values == -np.inf)):
            fail(f"{what}: an entry is neither 0 nor -inf: a masked score must be -inf, so "
                 "that its softmax weight is exactly 0")
        if n > 1 and not ((values == 0).any() and (values == -np.inf).any()):
            fail(f"{what}: the mask is all 0 or all -inf: it hides nothing or everything")


@once
def _reference(ref, n):
    """The reference's mask as an array, read by every submission's test_large_n."""
    mask = ref.causal_mask(n).numpy()
    mask.flags.writeable = False
    return mask


def test_large_n(ref, student):
    """answers n = 513 too (beyond a 512 x 512 table), with the values it gives small n"""
    # The values for n beyond a table a solution might build once are this test's subject:
    # a mask that is wrong for small n too (the other tests' subject) need only be a
    # (513, 513) mask that is not constant here.
    small, _ = _mask(student, SIZES[-1])
    small_right = bool(np.array_equal(small, _reference(ref, SIZES[-1])))
    what = f"causal_mask({LARGE})"
    patient = student.allowing(LARGE_SECONDS).at_most(LARGE_BYTES)
    values = as_array(patient.causal_mask(LARGE), what)
    if values.shape != (LARGE, LARGE):
        fail(f"{what}: expected shape ({LARGE}, {LARGE}), got {values.shape}: "
             "the mask must grow with n, however large")
    if (values == values.flat[0]).all():
        fail(f"{what}: every entry is the same: such a mask hides nothing or everything")
    if small_right:
        expect_close(values, _reference(ref, LARGE), what + f" (causal_mask({SIZES[-1]}) is "
                     "right: the mask must not come from a table of fixed size)", rtol=0, atol=0)


def test_rejects_invalid_n(student):
    """answers a valid n, and raises ValueError for n < 1 and for n that is not an int"""
    # Rejecting pays only beside an answer; the answer's values and shape are the other
    # tests' subjects (an answer of another shape still refuses what it should).
    mask = expect_tensor(student.at_most(ANSWER_BYTES).causal_mask(5), "causal_mask(5)")
    values = as_array(mask, "causal_mask(5)")
    if (values.dtype.kind == "f" and np.isnan(values).any()) or (values == values.flat[0]).all():
        fail("causal_mask(5): every entry is the same, or nan: such a mask hides nothing "
             "or everything")
    for bad in (0, -3, 2.5, "4", None):
        with expect_raises(ValueError, f"causal_mask({bad!r})"):
            student.causal_mask(bad)
