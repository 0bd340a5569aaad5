"""key_padding_mask(lengths, n_src): the additive mask hiding padded source positions."""
import numpy as np

from autograder.testing import (as_array, expect_close, expect_dtype, expect_ndarray,
                                expect_raises, expect_shape, fail, format_test, grading, once)

QUESTION = "key_padding_mask"


@format_test
def test_type_shape_dtype(student):
    """Returns a float64 numpy array with one row per sequence and one column per source position"""
    m = expect_ndarray(student.key_padding_mask([2, 3], 4), "key_padding_mask([2, 3], 4)")
    expect_shape(m, (2, 4), "key_padding_mask([2, 3], 4)")
    expect_dtype(m, "float64", "key_padding_mask([2, 3], 4)")


@once
def _cases(seed: int):
    """(lengths, n_src) cases: edge cases, then random ones from the student's seed."""
    rng = np.random.default_rng(seed)
    # the last edge case is wider than the tables of 512 or 2048 columns some
    # solutions build once and slice
    cases = [([1], 1), ([1], 5), ([5], 5), ([1, 5, 3], 5), ([7, 7], 7), ([3, 1500, 2100], 2100)]
    for _ in range(12):
        n_src = int(rng.integers(1, 40))
        batch = int(rng.integers(1, 9))
        cases.append((rng.integers(1, n_src + 1, size=batch).tolist(), n_src))
    return tuple((tuple(lengths), n) for lengths, n in cases)


def test_values(student, submission, ref):
    """0 at real source positions and -inf at padding, for edge cases and random lengths"""
    seed = grading.numbers(submission, student, QUESTION, ref)["seed"]
    for lengths, n_src in _cases(seed):
        what = f"key_padding_mask({list(lengths)}, {n_src})"
        expect_close(student.key_padding_mask(list(lengths), n_src),
                     ref.key_padding_mask(list(lengths), n_src), what)


def test_accepts_integer_array(student):
    """Lengths given as a numpy integer array, and n_src as a numpy integer, give what plain ints give"""
    # Compared with the student's own answer for a list: the values are test_values's subject.
    lengths = np.array([3, 1, 4], dtype=np.int64)
    what = "key_padding_mask(np.array([3, 1, 4]), 4)"
    as_list = expect_ndarray(student.key_padding_mask([3, 1, 4], 4), "key_padding_mask([3, 1, 4], 4)")
    if np.all(np.isfinite(as_list)):
        fail("key_padding_mask([3, 1, 4], 4) hides no position")
    expect_close(student.key_padding_mask(lengths, 4), as_list, what + ", compared with the list")
    # n_src = lengths.max() is a numpy integer, and an int as the question means it
    expect_close(student.key_padding_mask(lengths, lengths.max()), as_list,
                 "key_padding_mask(np.array([3, 1, 4]), np.int64(4)), compared with n_src=4")


def test_rejects_invalid_lengths(student):
    """Valid lengths get an answer; a length of 0, or longer than n_src, raises ValueError"""
    # Rejecting pays only beside an answer; its values and shape are the other tests'
    # subjects (an answer of another shape still refuses what it should).
    what = "key_padding_mask([1, 3], 3)"
    mask = student.key_padding_mask([1, 3], 3)
    values = as_array(mask, what).astype(np.float64)  # a boolean mask is read as 0 and 1
    if np.isnan(values).any() or (values == values.flat[0]).all():
        fail(f"{what}: every entry is the same, or nan: such a mask hides nothing or "
             "everything")
    for lengths, n_src in (([0, 2], 3), ([2, 4], 3)):
        with expect_raises(ValueError, f"key_padding_mask({lengths}, {n_src})"):
            student.key_padding_mask(lengths, n_src)
