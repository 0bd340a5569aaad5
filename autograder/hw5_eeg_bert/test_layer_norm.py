"""Hidden tests: layer_norm."""
import numpy as np

from autograder.checks import expect_close, expect_ndarray, expect_shape, fail

QUESTION = "layer_norm"


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
    rng = np.random.default_rng(1)
    for shape in ((9, 8), (1, 16), (5,), (2, 3, 6), (4, 2)):
        x = rng.normal(0.5, 2.0, size=shape)
        what = f"layer_norm(x of shape {shape})"
        expect_close(student.layer_norm(x), ref.layer_norm(x), what, rtol=1e-7, atol=1e-9)
    offset = rng.normal(size=(3, 8)) * 0.01 + 1000.0  # small spread around a large mean
    expect_close(student.layer_norm(offset), ref.layer_norm(offset),
                 "layer_norm(rows near 1000 with spread 0.01)", rtol=1e-5, atol=1e-6)


def test_eps_inside_square_root(ref, student):
    """eps is added to the variance, inside the square root, and can be passed by keyword"""
    x = np.random.default_rng(2).normal(size=(4, 8)) * 0.3
    for eps in (0.5, 1e-2):
        what = f"layer_norm(x, eps={eps})"
        expect_close(student.layer_norm(x, eps=eps), ref.layer_norm(x, eps=eps), what,
                     rtol=1e-7, atol=1e-9)
    constant = np.full((2, 8), 3.0)
    y = expect_ndarray(student.layer_norm(constant), "layer_norm(constant rows)")
    if not np.all(np.isfinite(y)):
        fail("layer_norm(constant rows): the result holds nan or inf")
    expect_close(y, ref.layer_norm(constant), "layer_norm(constant rows)", rtol=0, atol=1e-9)
