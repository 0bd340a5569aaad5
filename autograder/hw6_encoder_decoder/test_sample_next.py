"""Hidden tests: sample_next (graded on distribution).

Draws run in the student's worker through a trusted helper that calls the
student's sample_next n times with one rng handle. Each frequency is compared
with its exact probability using Hoeffding's inequality,
P(|count/n - p| >= eps) <= 2 exp(-2 n eps^2), which holds for any n with no
approximation. With m comparisons in one test, eps = sqrt(ln(2 m / 1e-6) / (2 n))
gives a false-fail probability below 1e-6 per test (union bound).
"""
import math

import numpy as np

from autograder.testing import Fail, expect_int, expect_raises, fail

QUESTION = "sample_next"
DRAW_SOURCE = '''
def draw(sample_next, logits, temperature, rng, top_k, n):
    if top_k is None:
        return [sample_next(logits, temperature, rng) for _ in range(n)]
    return [sample_next(logits, temperature, rng, top_k=top_k) for _ in range(n)]
'''
LOGITS = np.array([2.0, 1.0, 0.5, 0.0, -1.0, 1.5])
N = 3000


def _probabilities(logits, temperature, top_k=None):
    z = np.asarray(logits, dtype=np.float64) / temperature
    if top_k is not None and top_k < len(z):
        z = np.where(z >= np.sort(z)[-top_k], z, -np.inf)  # no ties at the cut in these tests
    p = np.exp(z - z.max())
    return p / p.sum()


def _draws(student, logits, temperature, top_k, n, seed):
    rng = student.new("numpy.random.default_rng", seed)
    what = f"sample_next(logits, temperature={temperature}, rng, top_k={top_k})"
    draws = student.build(DRAW_SOURCE, "draw", student.value("sample_next"),
                          logits, temperature, rng, top_k, n)
    ids = [expect_int(d, what) for d in draws]
    if min(ids) < 0 or max(ids) >= len(logits):
        fail(f"{what}: drew an id outside [0, {len(logits)})")
    return np.array(ids), what


def _frequencies_right(cases, student) -> bool:
    """Whether _check_frequencies passes (for a test that judges another property)."""
    try:
        _check_frequencies(cases, student)
    except Fail:
        return False
    return True


def _check_frequencies(cases, student):
    """cases: [(logits, temperature, top_k, seed)]; one union bound over all comparisons."""
    m = sum(len(c[0]) for c in cases)
    eps = math.sqrt(math.log(2 * m / 1e-6) / (2 * N))  # about 0.05 for m = 18, n = 3000
    for logits, temperature, top_k, seed in cases:
        ids, what = _draws(student, logits, temperature, top_k, N, seed)
        p = _probabilities(logits, temperature, top_k)
        if np.any(p[ids] == 0):
            fail(f"{what}: drew an id outside the top_k largest logits")
        freq = np.bincount(ids, minlength=len(logits)) / N
        if np.any(np.abs(freq - p) > eps):
            fail(f"{what}: the frequencies of the ids differ from softmax(logits / temperature)")


def test_returns_an_id(student):
    """returns one int id within range"""
    rng = student.new("numpy.random.default_rng", 0)
    i = expect_int(student.sample_next(LOGITS, 1.0, rng), "sample_next(logits, 1.0, rng)")
    if not 0 <= i < len(LOGITS):
        fail("sample_next(logits, 1.0, rng): the id is outside [0, len(logits))")


def test_temperature_distribution(student):
    """draws follow softmax(logits / T) for T = 1, 2 and 0.5"""
    _check_frequencies([(LOGITS, 1.0, None, 1), (LOGITS, 2.0, None, 2), (LOGITS, 0.5, None, 3)],
                       student)


def test_top_k_distribution(student):
    """with top_k, only the k largest logits are drawn, renormalised (temperature 1)"""
    # Temperature 1: how the temperature enters is the previous test's subject.
    _check_frequencies([(LOGITS, 1.0, 3, 4), (LOGITS[::-1].copy(), 1.0, 4, 5)], student)
    ids, what = _draws(student, LOGITS, 1.0, 1, 200, 6)
    if np.any(ids != int(np.argmax(LOGITS))):
        fail(f"{what}: top_k=1 must always give the largest logit")


def test_top_k_beyond_vocabulary(student):
    """a top_k at least as large as the vocabulary keeps every id"""
    _check_frequencies([(LOGITS, 1.0, len(LOGITS), 9), (LOGITS, 1.0, 50, 10)], student)


def test_large_logits(student):
    """logits in the thousands (or a tiny temperature) still give valid draws"""
    # Stability is this test's subject: a sampler whose draws are wrong for these logits
    # without the shift (test_temperature_distribution's subject) need only return ids.
    if _frequencies_right([(LOGITS, 1.0, None, 7)], student):
        _check_frequencies([(LOGITS + 1000.0, 1.0, None, 7)], student)
    else:
        _expect_certain_draw(student, LOGITS + 1000.0, "logits in the thousands")
    ids, what = _draws(student, LOGITS * 300.0, 0.01, None, 100, 8)
    if _frequencies_right([(LOGITS, 0.5, None, 8)], student) and \
            np.any(ids != int(np.argmax(LOGITS))):
        fail(f"{what}: a near-zero temperature must give the largest logit")


def test_uses_only_rng(student):
    """the same rng seed gives the same draws, different seeds different draws"""
    a, what = _draws(student, LOGITS, 1.0, None, 60, 11)
    b, _ = _draws(student, LOGITS, 1.0, None, 60, 11)
    if not np.array_equal(a, b):
        fail(f"{what}: two generators with the same seed gave different draws; "
             "draw from rng only (not np.random.*)")
    c, _ = _draws(student, LOGITS, 1.0, None, 60, 12)
    # 60 draws coincide by chance with probability <= (max_i p_i)^60 < 1e-20
    if np.array_equal(a, c):
        fail(f"{what}: generators with different seeds gave the same draws")


def _expect_certain_draw(student, logits, what):
    """With one logit 50 above the others the draw is certain (the others have probability
    below 1e-20): every sampler of softmax(logits / T), T = 1, returns that id, whatever
    its other faults; a test that needs an answer pays nothing without it."""
    winner = len(logits) - 2
    certain = np.array(logits, dtype=np.float64)
    certain[winner] = certain.max() + 50.0
    rng = student.new("numpy.random.default_rng", 0)
    got = expect_int(student.sample_next(certain, 1.0, rng), f"sample_next({what}, 1.0, rng)")
    if got != winner:
        fail(f"sample_next({what}, 1.0, rng): one logit is 50 above the others, yet another "
             "id was drawn")


def test_rejects_invalid_arguments(student):
    """samples for valid arguments; raises ValueError for temperature <= 0 and for top_k < 1"""
    _expect_certain_draw(student, LOGITS, "logits")
    rng = student.new("numpy.random.default_rng", 0)
    for temperature, top_k in ((0.0, None), (-1.0, None), (1.0, 0), (1.0, -3)):
        what = f"sample_next(logits, {temperature}, rng, top_k={top_k})"
        with expect_raises(ValueError, what):
            student.sample_next(LOGITS, temperature, rng, top_k=top_k)
