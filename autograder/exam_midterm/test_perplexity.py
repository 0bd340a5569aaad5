"""perplexity(logits, labels, ignore_index=-100): exp of the mean cross-entropy."""
import numpy as np

from autograder.testing import (changed, expect_close, expect_number, expect_raises, fail,
                                format_test, formats, grading, once)

QUESTION = "perplexity"


@format_test
def test_returns_float(student):
    """Returns one number, at least 1, for a small batch (a float, a numpy or 0-d torch one)"""
    value = student.perplexity(np.zeros((2, 4)), np.array([0, 3]))  # the public check's call
    problem = formats.answer_problem("number", value, "perplexity(...)", 1)
    if problem:
        fail(problem)


@once
def _batches(seed: int):
    """(logits, labels) with no ignored position: random sizes and scales from the seed."""
    rng = np.random.default_rng(seed)
    out = [(np.array([[0.0, 1.0, 2.0]]), np.array([2])),
           (np.array([[3.0, -1.0], [0.5, 0.5]]), np.array([1, 0]))]
    for scale in (0.1, 1.0, 4.0, 10.0):
        n, vocab = int(rng.integers(1, 30)), int(rng.integers(2, 60))
        out.append((rng.normal(0.0, scale, size=(n, vocab)), rng.integers(0, vocab, size=n)))
    return tuple(out)


def _check(student, ref, logits, labels, what, **kwargs):
    got = expect_number(student.perplexity(logits, labels, **kwargs), what)
    expect_close(got, ref.perplexity(logits, labels, **kwargs), what, rtol=1e-6, atol=0)


def test_values(student, submission, ref):
    """Matches exp(mean cross-entropy) on hand-made and random batches"""
    seed = grading.numbers(submission, student, QUESTION, ref)["seed"]
    for i, (logits, labels) in enumerate(_batches(seed)):
        _check(student, ref, logits, labels,
               f"perplexity on batch {i} ({logits.shape[0]} positions)")


def test_ignored_positions(student, submission, ref):
    """Positions labelled -100, or with the ignore_index given, do not count"""
    seed = grading.numbers(submission, student, QUESTION, ref)["seed"]
    rng = np.random.default_rng(seed + 1)
    logits = rng.normal(0.0, 2.0, size=(12, 9))
    labels = rng.integers(0, 9, size=12)
    labels[[1, 4, 5, 10]] = -100
    _check(student, ref, logits, labels, "perplexity with 4 of 12 positions labelled -100")
    labels = rng.integers(0, 8, size=12)
    labels[[0, 7]] = 8
    _check(student, ref, logits, labels, "perplexity(..., ignore_index=8)", ignore_index=8)


def test_large_logits_stay_finite(student, ref):
    """Stays finite and correct for logits in the thousands, and for a target scored
    over a thousand below its row's best"""
    rng = np.random.default_rng(7)
    # moderate differences on top of huge offsets: exp() of the raw logits overflows,
    # the answer (which the offsets do not change) is a modest number
    logits = rng.normal(0.0, 2.0, size=(6, 11)) + rng.choice([-4000.0, 3000.0, 5000.0], size=(6, 1))
    labels = rng.integers(0, 11, size=6)
    _check(student, ref, logits, labels, "perplexity with logits in the thousands")
    # one target 1200 below its row's best: its softmax probability (e^-1200) is 0 in
    # float64, so the log of a probability is -inf; its log-probability, and the
    # perplexity (about e^300, the mean over 4 positions), are finite
    logits = rng.normal(0.0, 2.0, size=(4, 5))
    logits[2, 3] = logits[2].max() - 1200.0
    _check(student, ref, logits, np.array([0, 1, 3, 4]),
           "perplexity with one target scored 1200 below its row's best")


def test_integer_scores(student, ref):
    """Integer scores (int8, as a quantised model gives them) give the perplexity of their values"""
    # Scores spread over the whole int8 range: arithmetic left in int8 wraps around
    # (100 - (-100) is -56 there), and np.exp of int8 overflows half precision.
    # Half-precision rounding alone is within the tolerance (1%), not charged here.
    rng = np.random.default_rng(11)
    logits = rng.integers(-120, 121, size=(8, 7)).astype(np.int8)
    best = np.argsort(logits, axis=1)[:, -2:]
    labels = np.where(rng.random(8) < 0.5, best[:, 1], best[:, 0])  # a modest perplexity
    what = "perplexity with int8 scores between -120 and 120"
    got = expect_number(student.perplexity(logits, labels), what)
    expect_close(got, ref.perplexity(logits, labels), what, rtol=1e-2, atol=0)


def test_rejects_nothing_to_score(student):
    """Scores a batch with positions to score; all positions ignored raises ValueError"""
    # Rejecting pays only beside an answer (any perplexity is a finite number >= 1);
    # its value is test_values' subject.
    logits, labels = np.array([[0.0, 2.0, -1.0], [1.0, 0.0, 0.5]]), np.array([1, -100])
    what = "perplexity with one of 2 positions labelled -100"
    got = expect_number(student.perplexity(logits, labels), what)
    if not (np.isfinite(got) and got >= 1.0):
        fail(f"{what}: {got!r} is not a perplexity (a finite number of at least 1)")
    other = expect_number(student.perplexity(logits * 3.0, labels), what + ", logits tripled")
    if not changed(got, other, what):
        fail(f"{what}: the perplexity did not change when the logits did")
    with expect_raises(ValueError, "perplexity with every label -100"):
        student.perplexity(np.zeros((2, 3)), np.array([-100, -100]))
