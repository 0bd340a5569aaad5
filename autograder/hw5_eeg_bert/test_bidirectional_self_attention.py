"""Hidden tests: bidirectional_self_attention."""
import numpy as np

from autograder.testing import (agrees, changed, expect_close, expect_ndarray, expect_shape, fail,
                                format_test)

QUESTION = "bidirectional_self_attention"
CONFIGS = [(9, 8, 2), (5, 12, 3), (7, 16, 4), (4, 6, 1), (6, 8, 8), (3, 10, 5)]  # (T, d, heads)


def _inputs(T, d, seed, scale=1.0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(T, d)) * scale
    Wq, Wk, Wv, Wo = (rng.normal(size=(d, d)) / np.sqrt(d) for _ in range(4))
    return x, Wq, Wk, Wv, Wo


def _call(student, args, heads, what):
    result = student.bidirectional_self_attention(*args, heads)
    if not isinstance(result, tuple) or len(result) != 2:
        fail(f"{what}: expected a tuple (out, weights), got {type(result).__name__}")
    return expect_ndarray(result[0], what + ": out"), expect_ndarray(result[1], what + ": weights")


@format_test
def test_shapes(student):
    """out is (T, d) and weights (heads, T, T)"""
    for seed, (T, d, heads) in enumerate(CONFIGS[:3]):
        what = f"x of shape {(T, d)}, heads={heads}"
        out, w = _call(student, _inputs(T, d, seed), heads, what)
        expect_shape(out, (T, d), what + ": out")
        expect_shape(w, (heads, T, T), what + ": weights")


def test_matches_reference(ref, student):
    """weights and output match the reference for several sizes and head counts"""
    for seed, (T, d, heads) in enumerate(CONFIGS):
        args = _inputs(T, d, 10 + seed)
        what = f"x of shape {(T, d)}, heads={heads}"
        out, w = _call(student, args, heads, what)
        ref_out, ref_w = ref.bidirectional_self_attention(*args, heads)
        expect_close(w, ref_w, what + ": weights", rtol=1e-5, atol=1e-7)
        expect_close(out, ref_out, what + ": out", rtol=1e-5, atol=1e-7)


def _expect_depends_on_x(student, args, heads, w, what):
    """The weights change with x: a test judged on the student's own answers pays nothing
    for weights that ignore the scores."""
    _, other = _call(student, (args[0] * 2.0, *args[1:]), heads, what + " with x doubled")
    if np.shape(other) == np.shape(w) and not changed(w, other, what + ": weights", atol=1e-12):
        fail(f"{what}: the weights did not change when x did")


def _expect_queries_compared(w, what):
    """Different queries get different weights: attention compares each query with the
    keys (a stand-in that weighs the keys alone gives every query the same row)."""
    if not changed(np.broadcast_to(w[..., :1, :], np.shape(w)), w, what + ": weights",
                   atol=1e-12):
        fail(f"{what}: every query has the same weights: they do not compare the queries "
             "with the keys")


def test_rows_sum_to_one_and_see_the_future(student):
    """every weight row sums to 1 and the entries above the diagonal are non-zero"""
    for seed, (T, d, heads) in enumerate(CONFIGS[:3]):
        what = f"x of shape {(T, d)}, heads={heads}"
        args = _inputs(T, d, 20 + seed)
        _, w = _call(student, args, heads, what)
        _expect_depends_on_x(student, args, heads, w, what)
        expect_shape(w, (heads, T, T), what + ": weights")
        if not np.allclose(w.sum(axis=-1), 1.0, atol=1e-6):
            fail(f"{what}: a row of weights does not sum to 1")
        upper = w[:, np.triu_indices(T, k=1)[0], np.triu_indices(T, k=1)[1]]
        if not np.all(upper > 0):
            fail(f"{what}: a weight above the diagonal is 0: attention must be bidirectional")
        _expect_queries_compared(w, what)


def test_large_scores_stay_finite(ref, student):
    """scores in the thousands give finite weights, equal to the reference's wherever moderate scores do"""
    x, *weights = _inputs(6, 8, 31)
    what = "x scaled so that scores reach the thousands"
    out, w = _call(student, (x * 150.0, *weights), 2, what)
    if not (np.all(np.isfinite(out)) and np.all(np.isfinite(w))):
        fail(f"{what}: the result holds nan or inf")
    # Stability is this test's subject, not the values: an attention that is wrong for
    # moderate scores too (test_matches_reference's subject) need only stay finite here,
    # and give other weights than for moderate scores (not ignore them).
    _, moderate = _call(student, (x, *weights), 2, "x of shape (6, 8), heads=2")
    if np.shape(moderate) == np.shape(w) and np.allclose(moderate, w, rtol=0, atol=1e-12):
        fail(f"{what}: the weights are those of x unscaled: they ignore the scores")
    if agrees(moderate, ref.bidirectional_self_attention(x, *weights, 2)[1], 1e-5, 1e-7):
        ref_w = ref.bidirectional_self_attention(x * 150.0, *weights, 2)[1]
        expect_close(w, ref_w, what + ": weights", rtol=1e-4, atol=1e-6)
    else:  # judged on their own terms: they must still be attention's weights
        _expect_queries_compared(moderate, "x of shape (6, 8), heads=2")
