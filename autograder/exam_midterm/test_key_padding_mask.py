"""key_padding_mask(lengths, n_src): the additive mask hiding padded source positions."""
import functools

import numpy as np

from autograder.checks import (expect_close, expect_dtype, expect_ndarray, expect_raises,
                               expect_shape)
from autograder.exam import grading

QUESTION = "key_padding_mask"


def test_type_shape_dtype(student):
    """Returns a float64 numpy array with one row per sequence and one column per source position"""
    m = expect_ndarray(student.key_padding_mask([2, 3], 4), "key_padding_mask([2, 3], 4)")
    expect_shape(m, (2, 4), "key_padding_mask([2, 3], 4)")
    expect_dtype(m, "float64", "key_padding_mask([2, 3], 4)")


@functools.lru_cache(maxsize=None)
def _cases(seed: int):
    """(lengths, n_src) cases: edge cases, then random ones from the student's seed."""
    rng = np.random.default_rng(seed)
    cases = [([1], 1), ([1], 5), ([5], 5), ([1, 5, 3], 5), ([7, 7], 7)]
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
    """Lengths given as a numpy integer array work like a list"""
    lengths = np.array([3, 1, 4], dtype=np.int64)
    expect_close(student.key_padding_mask(lengths, 4),
                 np.where(np.arange(4)[None, :] >= lengths[:, None], -np.inf, 0.0),
                 "key_padding_mask(np.array([3, 1, 4]), 4)")


def test_rejects_invalid_lengths(student, ref):
    """Valid lengths work; a length of 0, or longer than n_src, raises ValueError"""
    expect_close(student.key_padding_mask([1, 3], 3), ref.key_padding_mask([1, 3], 3),
                 "key_padding_mask([1, 3], 3)")
    for lengths, n_src in (([0, 2], 3), ([2, 4], 3)):
        with expect_raises(ValueError, f"key_padding_mask({lengths}, {n_src})"):
            student.key_padding_mask(lengths, n_src)
