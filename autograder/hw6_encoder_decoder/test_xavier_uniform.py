"""Hidden tests: xavier_uniform (graded on distribution).

The rng is created in the student's worker and passed as a handle, so any
correct sampler passes whatever it draws first; the bounds below are derived
so that a correct sampler fails with probability below 1e-6 per test.
"""
import math

import numpy as np

from autograder.testing import expect_dtype, expect_ndarray, expect_shape, fail, format_test

QUESTION = "xavier_uniform"


def _draw(student, fan_in, fan_out, seed):
    """The weights, read whatever their shape (test_shape_dtype_bounds's subject)."""
    what = f"xavier_uniform({fan_in}, {fan_out}, rng)"
    w = expect_ndarray(student.xavier_uniform(fan_in, fan_out,
                                              student.new("numpy.random.default_rng", seed)), what)
    return w, what


@format_test
def test_shape_dtype_bounds(student):
    """returns float64 weights of shape (fan_in, fan_out), all within [-a, a]"""
    for fan_in, fan_out in ((8, 8), (16, 8), (3, 500), (500, 8)):
        w, what = _draw(student, fan_in, fan_out, 0)
        expect_shape(w, (fan_in, fan_out), what)
        expect_dtype(w, "float64", what)
        if np.any(np.abs(w) > math.sqrt(6.0 / (fan_in + fan_out))):
            fail(f"{what}: some weights lie outside [-a, a]")


def test_uses_only_rng(student):
    """the same rng seed gives the same weights, different seeds different weights"""
    a, what = _draw(student, 6, 7, 11)
    b, _ = _draw(student, 6, 7, 11)
    if not np.array_equal(a, b):
        fail(f"{what}: two generators with the same seed gave different weights; "
             "draw from rng only (not np.random.*)")
    c, _ = _draw(student, 6, 7, 12)
    if np.array_equal(a, c):
        fail(f"{what}: generators with different seeds gave the same weights")
    small, what = _draw(student, 50, 60, 13)
    # 3000 continuous draws: two equal values has probability < 3000^2 / 2^53 < 1e-9
    if np.unique(small).size != small.size:
        fail(f"{what}: some weights repeat; every entry must be its own draw")


def test_uniform_over_the_interval(student):
    """the weights are spread uniformly over the whole interval [-a, a]"""
    fan_in, fan_out = 400, 600
    a = math.sqrt(6.0 / (fan_in + fan_out))
    w, what = _draw(student, fan_in, fan_out, 21)
    n = w.size  # 240000 draws
    # Reaching the ends: P(all |w| < 0.99 a) = 0.99^240000 = e^-2412.
    if np.max(np.abs(w)) < 0.99 * a:
        fail(f"{what}: the weights never come near +-a; the interval is too narrow")
    # Chi-square test on 20 equal bins (expected count 12000 each, where the
    # chi-square approximation is excellent): P(chi2_19 > 63.68) = 1e-6.
    counts, _ = np.histogram(np.clip(w, -a, a), bins=20, range=(-a, a))
    expected = n / 20
    chi2 = float(np.sum((counts - expected) ** 2 / expected))
    if chi2 > 63.68:
        fail(f"{what}: the weights are not uniform over [-a, a] (chi-square {chi2:.1f} on 19 dof)")
