"""Hidden tests: sinusoidal_pe.

Every correct formulation (vectorised, loops, an exp/log frequency term,
math.sin per entry) agrees with the reference to about 1e-15 relative in
the angle; at position 100,000 that is an absolute error near 1e-10, so
atol=1e-8 accepts them all and still rejects float32 arithmetic (errors of
1e-4 and more at such positions) and every layout or frequency mistake
(errors of order 1).
"""
import math

import numpy as np

from autograder.testing import (agrees, as_array, changed, expect_close, expect_dtype,
                                expect_ndarray, expect_raises, expect_shape, fail, format_test,
                                once)

QUESTION = "sinusoidal_pe"
GRID = [(1, 2), (6, 8), (2, 4), (9, 6), (50, 16), (33, 10), (100, 64), (17, 2), (128, 128),
        (5, 30)]  # (n_pos, d): d not a multiple of 4, d = 2, more columns than rows


@once
def _ref(ref, n_pos, d):
    return ref.sinusoidal_pe(n_pos, d)


def _pe(student, n_pos, d):
    """The table as an array, whatever its type (an ndarray is test_type_shape_dtype's subject)."""
    what = f"sinusoidal_pe({n_pos}, {d})"
    pe = as_array(student.sinusoidal_pe(n_pos, d), what)
    expect_shape(pe, (n_pos, d), what)
    return pe, what


def _expect_a_table(pe, what):
    """For a test that judges the table on its own terms: finite sines and cosines
    (within [-1, 1]) whose rows change with the position (zeros are not a table)."""
    if not changed(np.broadcast_to(pe[:1], pe.shape), pe, what):
        fail(f"{what}: every row of the table is the same: it does not encode the position")
    if np.abs(pe).max() > 1.0 + 1e-12:
        fail(f"{what}: an entry lies outside [-1, 1]: the table is not sines and cosines")


@format_test
def test_type_shape_dtype(student):
    """returns a float64 numpy array of shape (n_pos, d)"""
    for n_pos, d in ((4, 8), (1, 2), (10, 6)):
        what = f"sinusoidal_pe({n_pos}, {d})"
        pe = expect_ndarray(student.sinusoidal_pe(n_pos, d), what)
        expect_shape(pe, (n_pos, d), what)
        expect_dtype(pe, np.dtype("float64"), what)


def test_position_zero(student):
    """position 0 is (0, 1, 0, 1, ...): sine in even columns, cosine in odd ones"""
    for d in (2, 8, 20):
        pe, what = _pe(student, 3, d)
        expect_close(pe[0], np.tile([0.0, 1.0], d // 2), what + " row 0", rtol=0, atol=1e-12)


def test_values(ref, student):
    """matches the formula for many (n_pos, d), up to 128 positions"""
    for n_pos, d in GRID:
        pe, what = _pe(student, n_pos, d)
        expect_close(pe, _ref(ref, n_pos, d), what, rtol=0, atol=1e-9)


def test_large_positions(ref, student):
    """stays exact to 1e-8 up to position 100,000 (computed in float64)"""
    # Precision at large positions is this test's subject: a table whose layout or
    # frequencies are wrong already at small positions (test_values's subject: errors of
    # order 1 there, where float32's are below 1e-6) need only be finite here. 100,001
    # positions (3.2 MB) reach past the tables a solution may build once and slice
    # (5,000 as in PyTorch's tutorial, 2^15, 2^16): the contract has no largest n_pos.
    small, _ = _pe(student, 50, 16)
    layout = agrees(small, _ref(ref, 50, 16), rtol=0, atol=1e-6)
    for n_pos, d in ((20_001, 12), (3_000, 64), (100_001, 4)):
        pe, what = _pe(student, n_pos, d)
        if layout:
            expect_close(pe, _ref(ref, n_pos, d), what, rtol=0, atol=1e-8)
        elif not np.all(np.isfinite(pe)):
            fail(f"{what}: the table holds nan or inf")
        else:
            _expect_a_table(pe.astype(np.float64), what)


@format_test
def test_no_positions(student):
    """n_pos = 0 gives an empty array of shape (0, d)"""
    for d in (2, 16):
        _pe(student, 0, d)


def test_relative_position_figures(student):
    """reproduces the lesson's PE(p) . PE(p+k) table (d = 16) and closest pair (d = 64)"""
    pe, what = _pe(student, 301, 16)
    table = {0: 8.000, 1: 7.485, 2: 6.368, 5: 6.137, 10: 3.646, 30: 2.699, 100: 3.487}
    for k, dot in table.items():
        for p in (0, 10, 50, 200):
            got = float(pe[p] @ pe[p + k])
            if not abs(got - dot) <= 5e-4:  # the lesson prints 3 decimals
                fail(f"{what}: PE({p}) . PE({p + k}) is {got:.4f}, not the lesson's value")
    pe, what = _pe(student, 1000, 64)
    norms2 = np.einsum("pd,pd->p", pe, pe)
    gaps2 = norms2[:, None] - 2.0 * (pe @ pe.T)  # (1000, 1000) squared distances, in place:
    gaps2 += norms2[None, :]  # no more 8 MB temporaries than needed
    np.fill_diagonal(gaps2, np.inf)  # a position's distance to itself
    closest = math.sqrt(max(gaps2.min(), 0.0))  # nan stays nan, and fails
    if not abs(closest - 1.472) <= 5e-4:
        fail(f"{what}: the two closest positions are {closest:.4f} apart, "
             "not the lesson's distance")


def _expect_valid_input_works(student):
    """Points for rejecting bad input count only beside an answer to valid input: a
    finite table of sines and cosines that change with the position (its values and
    its shape are the other tests' subjects: rows are read along the last axis)."""
    table = as_array(student.sinusoidal_pe(6, 8), "sinusoidal_pe(6, 8)")
    if table.ndim >= 2:
        table = table.reshape(-1, table.shape[-1])
    if not np.isfinite(table.astype(np.float64)).all():
        fail("sinusoidal_pe(6, 8): the table holds nan or inf")
    _expect_a_table(table.astype(np.float64), "sinusoidal_pe(6, 8)")


def test_rejects_bad_d(student):
    """answers valid sizes, and raises ValueError when d is odd, zero or negative"""
    _expect_valid_input_works(student)
    for n_pos, d in ((4, 7), (4, 1), (4, 0), (4, -2), (0, 3)):
        with expect_raises(ValueError, f"sinusoidal_pe({n_pos}, {d})"):
            student.sinusoidal_pe(n_pos, d)


def test_rejects_negative_n_pos(student):
    """answers valid sizes, and raises ValueError when n_pos is negative"""
    _expect_valid_input_works(student)
    for n_pos, d in ((-1, 8), (-5, 2)):
        with expect_raises(ValueError, f"sinusoidal_pe({n_pos}, {d})"):
            student.sinusoidal_pe(n_pos, d)


def test_rejects_non_integers(student):
    """answers valid sizes; raises ValueError when n_pos or d is not an int (float, str, None)"""
    _expect_valid_input_works(student)
    for n_pos, d in ((3.5, 8), (4, 8.0), (4, 7.5), ("4", 8), (4, None)):
        with expect_raises(ValueError, f"sinusoidal_pe({n_pos!r}, {d!r})"):
            student.sinusoidal_pe(n_pos, d)
