"""Hidden tests: layer_norm."""
import numpy as np

from autograder.testing import (agrees, expect_close, expect_finite, expect_ndarray, expect_shape,
                                fail)

QUESTION = "layer_norm"
# Rows whose variance is about 100 (a row of two values: above 1 but for one chance in
# 10^4), so that eps (1e-5) moves each value by less than 1e-5 of itself: test_values's
# tolerance does not see where eps goes, which is test_eps_inside_square_root's subject.
SPREAD = 10.0
VALUES_RTOL = 1e-5
# Rows whose variance is 4e-6 to 2e-5, of the order of eps itself: there the default eps
# moves every value by a fifth or more if it is 2e-5 instead of 1e-5 (by 2% at 1.1e-5),
# and by 1e-8 if it is 1e-5 written as float32: DEFAULT_EPS_RTOL tells them apart.
NEAR_EPS = 3e-3
DEFAULT_EPS_RTOL = 1e-3


def _spread(shape, seed, mean=0.5):
    return np.random.default_rng(seed).normal(mean, SPREAD, size=shape)


def test_rows_mean_zero_std_one(student):
    """each row of the result has mean 0 and standard deviation 1"""
    x = np.random.default_rng(0).normal(2.0, 3.0, size=(9, 8))
    y = expect_ndarray(student.layer_norm(x), "layer_norm(x of shape (9, 8))")
    expect_shape(y, (9, 8), "layer_norm(x of shape (9, 8))")
    if not np.allclose(y.mean(axis=-1), 0.0, atol=1e-8):
        fail("layer_norm(x of shape (9, 8)): a row's mean is not 0")
    if not np.allclose(y.std(axis=-1), 1.0, atol=1e-4):
        fail("layer_norm(x of shape (9, 8)): a row's (population) standard deviation is not 1")


def test_values(ref, student):
    """matches (x - mean) / sqrt(var + eps) row by row, for several shapes"""
    for seed, shape in enumerate(((9, 8), (1, 16), (5,), (2, 3, 6), (4, 2))):
        x = _spread(shape, 10 + seed)
        what = f"layer_norm(x of shape {shape})"
        expect_close(student.layer_norm(x), ref.layer_norm(x), what,
                     rtol=VALUES_RTOL, atol=1e-9)
    offset = _spread((3, 8), 20, mean=1e8)  # a large mean: E[x^2] - E[x]^2 loses digits
    expect_close(student.layer_norm(offset), ref.layer_norm(offset),
                 "layer_norm(rows near 10**8 with spread 10)", rtol=VALUES_RTOL, atol=1e-6)


def test_eps_inside_square_root(ref, student):
    """eps is added to the variance, inside the square root, can be passed by keyword and defaults to 1e-5"""
    # eps placement can only be judged where the formula is otherwise right (test_values's
    # subject): a layer_norm wrong on ordinary rows is only required to stay finite here.
    plain = _spread((4, 8), 2)
    normalised = expect_ndarray(student.layer_norm(plain), "layer_norm(x of shape (4, 8))")
    formula = agrees(normalised, ref.layer_norm(plain), VALUES_RTOL, 1e-9)
    # Judged on its own terms below, the result must still be a normalisation: finite
    # numbers, not all the same, and the same for the rows scaled and shifted (var 100
    # to 900: eps is lost in it).
    values = expect_finite(normalised, "layer_norm(x of shape (4, 8))")
    if np.ptp(values.astype(np.float64)) == 0:  # (numpy has no ptp of booleans)
        fail("layer_norm(x of shape (4, 8)): every value of the result is the same")
    if not agrees(student.layer_norm(plain * 3.0 + 7.0), normalised, rtol=1e-4, atol=1e-6):
        fail("layer_norm(3 x + 7) differs from layer_norm(x): the result does not normalise "
             "the scale and offset of its input")
    x = np.random.default_rng(2).normal(size=(4, 8)) * 0.3
    for eps in (0.5, 1e-2) if formula else ():
        what = f"layer_norm(x, eps={eps})"
        expect_close(student.layer_norm(x, eps=eps), ref.layer_norm(x, eps=eps), what,
                     rtol=1e-7, atol=1e-9)
    if formula:
        _expect_default_eps(ref, student)
    constant = np.full((2, 8), 3.0)
    y = expect_ndarray(student.layer_norm(constant), "layer_norm(constant rows)")
    if not np.all(np.isfinite(y)):
        fail("layer_norm(constant rows): the result holds nan or inf")
    if formula:
        expect_close(y, ref.layer_norm(constant), "layer_norm(constant rows)", rtol=0, atol=1e-9)


def _expect_default_eps(ref, student):
    """Without eps, the contract's 1e-5 is used: seen only on rows whose variance is of
    the order of eps (elsewhere test_values's tolerance hides any small default)."""
    x = np.random.default_rng(3).normal(size=(4, 8)) * NEAR_EPS
    what = "layer_norm(x) without eps, for rows whose variance is about 1e-5"
    expect_close(student.layer_norm(x), ref.layer_norm(x), what,
                 rtol=DEFAULT_EPS_RTOL, atol=1e-9)
