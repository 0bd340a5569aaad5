"""Hidden tests: sample_next (graded on distribution).

The draws of one case run in the student's worker in one request
(Student.repeat: N calls of the student's sample_next with one rng handle).
Each count of an id is compared with the exact binomial distribution a correct
sampler gives it, Bin(N, p_i) (autograder/binomial.py): a correct sampler
falls outside the interval with probability at most alpha, and a test making m
comparisons gives each alpha = 1e-6 / m, so by the union bound a correct
sampler fails a test with probability at most 1e-6, as before. An id of
probability 0 (outside the top_k) is an exact check: it is never drawn.

N = 2,600 draws per case: the exact interval of every id of every case is then
at least as narrow as the one Hoeffding's bound gave with 3,000 draws (at most
0.053 from a probability near 0.4, against 0.052-0.054; narrower for small
probabilities), so no departure is accepted that was caught before (the
widths of every case are in docs/speed.md, "hw6's sample_next"). The
temperatures are 4 and 0.25, where a temperature that enters wrongly moves
the distribution furthest: the closest corpus mistake (temperature applied to
the probabilities, that is, ignored) and a square root of T are missed with
probability far below 1e-30.
"""
import numpy as np

from autograder.testing import (ALPHA, Fail, StudentError, expect_int, expect_raises, fail,
                                format_test, interval)

QUESTION = "sample_next"
LOGITS = np.array([2.0, 1.0, 0.5, 0.0, -1.0, 1.5])
N = 2600


def _probabilities(logits, temperature, top_k=None):
    z = np.asarray(logits, dtype=np.float64) / temperature
    if top_k is not None and top_k < len(z):
        z = np.where(z >= np.sort(z)[-top_k], z, -np.inf)  # no ties at the cut in these tests
    p = np.exp(z - z.max())
    return p / p.sum()


def _draws(student, logits, temperature, top_k, n, seed):
    """n draws in one request, with one numpy Generator(seed) made in the worker."""
    rng = student.new("numpy.random.default_rng", seed)
    what = f"sample_next(logits, temperature={temperature}, rng, top_k={top_k})"
    sampler = student.repeat(n)
    draws = (sampler.sample_next(logits, temperature, rng) if top_k is None
             else sampler.sample_next(logits, temperature, rng, top_k=top_k))
    ids = [expect_int(d, what) for d in draws]
    if min(ids) < 0 or max(ids) >= len(logits):
        fail(f"{what}: drew an id outside [0, {len(logits)})")
    return np.array(ids), what


def _fault(check, *args):
    """The Fail or StudentError that check(*args) raises, or None: for a test that
    judges another property (a sampler that raises has the checked cases wrong too)."""
    try:
        check(*args)
    except (Fail, StudentError) as exc:
        return exc
    return None


def _check_frequencies(cases, student):
    """cases: [(logits, temperature, top_k, seed)]; one union bound over all comparisons."""
    expected = [_probabilities(logits, temperature, top_k)
                for logits, temperature, top_k, _ in cases]
    alpha = ALPHA / sum(int(np.count_nonzero(p)) for p in expected)
    for (logits, temperature, top_k, seed), p in zip(cases, expected):
        ids, what = _draws(student, logits, temperature, top_k, N, seed)
        if np.any(p[ids] == 0):
            fail(f"{what}: drew an id outside the top_k largest logits")
        counts = np.bincount(ids, minlength=len(logits))
        for count, p_i in zip(counts, p):
            lo, hi = interval(N, float(p_i), alpha)
            if p_i > 0 and not lo <= count <= hi:
                fail(f"{what}: the frequencies of the ids differ from "
                     "softmax(logits / temperature)")


@format_test
def test_returns_an_id(student):
    """returns one int id within range, also for an int temperature and a numpy integer top_k"""
    rng = student.new("numpy.random.default_rng", 0)
    i = expect_int(student.sample_next(LOGITS, 1.0, rng), "sample_next(logits, 1.0, rng)")
    if not 0 <= i < len(LOGITS):
        fail("sample_next(logits, 1.0, rng): the id is outside [0, len(logits))")
    # The contract's temperature is any number > 0 and its top_k any integer >= 1: code
    # that takes k from an array (np.argmax, a shape) passes numpy integers. A numpy
    # top_k is judged only where a Python int one gives an id (the top_k tests try that).
    _expect_id(student, 2, None, "sample_next(logits, 2, rng)")
    if _fault(_expect_id, student, 1.0, 3, "sample_next(logits, 1.0, rng, top_k=3)") is None:
        _expect_id(student, 1.0, np.int64(3), "sample_next(logits, 1.0, rng, top_k=np.int64(3))")


def _expect_id(student, temperature, top_k, what):
    """One draw with these arguments is an int id within range."""
    rng = student.new("numpy.random.default_rng", 0)
    i = expect_int(student.sample_next(LOGITS, temperature, rng, top_k=top_k), what)
    if not 0 <= i < len(LOGITS):
        fail(f"{what}: the id is outside [0, len(logits))")


def test_temperature_distribution(student):
    """draws follow softmax(logits / T) for T = 1, 4 and 0.25"""
    # Far from 1 on both sides: a temperature that enters wrongly (ignored, multiplied,
    # under a square root) moves these distributions furthest, so few draws tell.
    _check_frequencies([(LOGITS, 1.0, None, 1), (LOGITS, 4.0, None, 2), (LOGITS, 0.25, None, 3)],
                       student)


def test_top_k_distribution(student):
    """with top_k, only the k largest logits are drawn, renormalised (temperature 1)"""
    # Temperature 1: how the temperature enters is the previous test's subject.
    _check_frequencies([(LOGITS, 1.0, 3, 4), (LOGITS[::-1].copy(), 1.0, 4, 5)], student)
    ids, what = _draws(student, LOGITS, 1.0, 1, 200, 6)
    if np.any(ids != int(np.argmax(LOGITS))):
        fail(f"{what}: top_k=1 must always give the largest logit")
    # A numpy integer top_k restricts the draws too. Exact: ids outside the top 2 have
    # probability 0; a sampler that ignores this top_k draws one of them (a third of
    # the mass) in 200 draws with probability 1 - 0.67^200 > 1 - 1e-34.
    ids, what = _draws(student, LOGITS, 1.0, np.int64(2), 200, 14)
    if np.any(_probabilities(LOGITS, 1.0, 2)[ids] == 0):
        fail(f"{what}: drew an id outside the top_k largest logits (top_k a numpy integer)")


def test_top_k_beyond_vocabulary(student):
    """a top_k at least as large as the vocabulary keeps every id"""
    _check_frequencies([(LOGITS, 1.0, len(LOGITS), 9), (LOGITS, 1.0, 50, 10)], student)


def test_large_logits(student):
    """logits in the thousands (or a tiny temperature) still give valid draws"""
    # Stability is this test's subject: a sampler whose draws are wrong for these logits
    # without the shift (test_temperature_distribution's subject) need only return ids,
    # which _expect_certain_draw judges. The ordinary logits are drawn only when the
    # verdict depends on them.
    shifted, ordinary = [(LOGITS + 1000.0, 1.0, None, 7)], [(LOGITS, 1.0, None, 7)]
    certain = (student, LOGITS + 1000.0, "logits in the thousands")
    fault = _fault(_check_frequencies, shifted, student)
    if fault is not None or _fault(_expect_certain_draw, *certain) is not None:
        if _fault(_check_frequencies, ordinary, student) is not None:
            _expect_certain_draw(*certain)
        elif fault is not None:
            raise fault
    ids, what = _draws(student, LOGITS * 300.0, 0.01, None, 100, 8)
    if np.any(ids != int(np.argmax(LOGITS))) and \
            _fault(_check_frequencies, [(LOGITS, 0.5, None, 8)], student) is None:
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
    # -0.5: a negative temperature above -1; np.int64(0): a top_k that is a numpy integer.
    for temperature, top_k in ((0.0, None), (-1.0, None), (1.0, 0), (1.0, -3), (-0.5, None),
                               (1.0, np.int64(0))):
        what = f"sample_next(logits, {temperature}, rng, top_k={top_k!r})"
        with expect_raises(ValueError, what):
            student.sample_next(LOGITS, temperature, rng, top_k=top_k)
