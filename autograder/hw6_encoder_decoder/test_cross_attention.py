"""Hidden tests: cross_attention."""
import numpy as np

from autograder.testing import (agrees, changed, expect_close, expect_ndarray, expect_shape, fail,
                                format_test)

QUESTION = "cross_attention"
CONFIGS = [(7, 9, 8, 2), (9, 7, 8, 2), (3, 11, 12, 3), (5, 5, 16, 4), (1, 6, 6, 1), (4, 2, 16, 8)]
# (n_tgt, n_src, d, heads): rectangular both ways, square, one query, many heads


def _inputs(n_tgt, n_src, d, seed, scale=1.0):
    rng = np.random.default_rng(seed)
    y = rng.normal(size=(n_tgt, d)) * scale
    h = rng.normal(size=(n_src, d)) * scale
    Wq, Wk, Wv, Wo = (rng.normal(size=(d, d)) / np.sqrt(d) for _ in range(4))
    return y, h, Wq, Wk, Wv, Wo


def _call(student, args, heads, what):
    result = student.cross_attention(*args, heads)
    if not isinstance(result, tuple) or len(result) != 2:
        fail(f"{what}: expected a tuple (out, weights), got {type(result).__name__}")
    return expect_ndarray(result[0], what + ": out"), expect_ndarray(result[1], what + ": weights")


def _what(n_tgt, n_src, d, heads):
    return f"y of shape {(n_tgt, d)}, h of shape {(n_src, d)}, heads={heads}"


@format_test
def test_rectangular_shapes(student):
    """7 decoder positions reading 9 encoder positions: out (7, d), weights (heads, 7, 9)"""
    for seed, (n_tgt, n_src, d, heads) in enumerate(CONFIGS[:3]):
        what = _what(n_tgt, n_src, d, heads)
        out, w = _call(student, _inputs(n_tgt, n_src, d, seed), heads, what)
        expect_shape(out, (n_tgt, d), what + ": out")
        expect_shape(w, (heads, n_tgt, n_src), what + ": weights")


def test_matches_reference(ref, student):
    """weights and output match the reference for rectangular shapes and several head counts"""
    for seed, (n_tgt, n_src, d, heads) in enumerate(CONFIGS):
        args = _inputs(n_tgt, n_src, d, 10 + seed)
        what = _what(n_tgt, n_src, d, heads)
        out, w = _call(student, args, heads, what)
        ref_out, ref_w = ref.cross_attention(*args, heads)
        expect_close(w, ref_w, what + ": weights", rtol=1e-5, atol=1e-7)
        expect_close(out, ref_out, what + ": out", rtol=1e-5, atol=1e-7)


def _expect_depends_on_inputs(student, args, heads, w, what):
    """The weights change with y and h: a test judged on the student's own answers pays
    nothing for weights that ignore the scores."""
    _, other = _call(student, (args[0] * 2.0, args[1] * 2.0, *args[2:]), heads,
                     what + " with y and h doubled")
    if np.shape(other) == np.shape(w) and not changed(w, other, what + ": weights", atol=1e-12):
        fail(f"{what}: the weights did not change when y and h did")


def _expect_queries_compared(w, what):
    """Different decoder positions get different weights: cross-attention compares each
    query with the keys (a stand-in weighing the keys alone gives every query one row)."""
    if not changed(np.broadcast_to(w[..., :1, :], np.shape(w)), w, what + ": weights",
                   atol=1e-12):
        fail(f"{what}: every decoder position has the same weights: they do not compare "
             "the queries with the keys")


def test_every_encoder_position_visible(student):
    """every weight row sums to 1 and no encoder position is masked out"""
    for seed, (n_tgt, n_src, d, heads) in enumerate(CONFIGS[:4]):
        what = _what(n_tgt, n_src, d, heads)
        args = _inputs(n_tgt, n_src, d, 20 + seed)
        _, w = _call(student, args, heads, what)
        _expect_depends_on_inputs(student, args, heads, w, what)
        if not np.allclose(w.sum(axis=-1), 1.0, atol=1e-6):
            fail(f"{what}: a row of weights does not sum to 1 over the encoder positions")
        if not np.all(w > 0):
            fail(f"{what}: a weight is 0: cross-attention has no mask")
        _expect_queries_compared(w, what)


def test_decoder_positions_independent(student):
    """changing one decoder state changes only its own output row"""
    args = list(_inputs(7, 9, 8, 40))
    out, _ = _call(student, args, 2, _what(7, 9, 8, 2))
    args[0] = args[0].copy()
    args[0][3] += 1.0
    out2, _ = _call(student, args, 2, "y with row 3 changed")
    expect_shape(out2, (7, 8), "y with row 3 changed: out")
    others = [i for i in range(7) if i != 3]
    if changed(out[others], out2[others], "y with row 3 changed: out", atol=1e-7):
        fail("changing decoder row 3 changed the output of another decoder row")
    if not changed(out[3], out2[3], "y with row 3 changed: out", atol=1e-9):
        fail("changing decoder row 3 did not change its own output")
    # Rows that are independent must still read the encoder: out depends on h.
    args[1] = args[1] + 1.0
    out3, _ = _call(student, args, 2, "h changed")
    if not changed(out2, out3, "h changed: out", atol=1e-9):
        fail("changing the encoder states h did not change the output: cross-attention "
             "reads h")


def test_large_scores_stay_finite(ref, student):
    """scores in the thousands give finite weights, equal to the reference's wherever moderate scores do"""
    y, h, *weights = _inputs(7, 9, 8, 51)
    large = (y * 150.0, h * 150.0, *weights)
    what = "y and h scaled so that scores reach the thousands"
    out, w = _call(student, large, 2, what)
    if not (np.all(np.isfinite(out)) and np.all(np.isfinite(w))):
        fail(f"{what}: the result holds nan or inf")
    # Stability is this test's subject: a cross-attention that is wrong for moderate scores
    # too (test_matches_reference's subject) need only stay finite here, and give other
    # weights than for moderate scores (not ignore them).
    _, moderate = _call(student, (y, h, *weights), 2, _what(7, 9, 8, 2))
    if np.shape(moderate) == np.shape(w) and np.allclose(moderate, w, rtol=0, atol=1e-12):
        fail(f"{what}: the weights are those of y and h unscaled: they ignore the scores")
    if agrees(moderate, ref.cross_attention(y, h, *weights, 2)[1], rtol=1e-5, atol=1e-7):
        expect_close(w, ref.cross_attention(*large, 2)[1], what + ": weights",
                     rtol=1e-4, atol=1e-6)
    else:  # judged on their own terms: they must still be attention's weights
        _expect_queries_compared(moderate, _what(7, 9, 8, 2))
