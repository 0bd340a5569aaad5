"""Hidden tests: sequence_cross_entropy."""
import math

import numpy as np

from autograder.testing import agrees, changed, expect_close, expect_number, fail

QUESTION = "sequence_cross_entropy"


def _ce(student, logits, labels, what):
    return expect_number(student.sequence_cross_entropy(logits, labels), what)


def test_uniform_logits_give_log_v(student):
    """equal logits give log V, the chance level (log 500 for the lesson's vocabulary)"""
    labels = np.array([127, 340, 68, 57, 412, 322, 2])
    what = "sequence_cross_entropy(zeros of shape (7, 500), labels)"
    expect_close(_ce(student, np.zeros((7, 500)), labels, what), math.log(500), what,
                 rtol=1e-9, atol=1e-9)


def test_values(ref, student):
    """matches the mean of -log softmax(logits)[label] on random inputs"""
    rng = np.random.default_rng(0)
    for n, V in ((7, 500), (1, 5), (4, 3), (10, 50)):
        logits = rng.normal(size=(n, V)) * 2.0
        labels = rng.integers(0, V, size=n)
        what = f"logits of shape {(n, V)}"
        expect_close(_ce(student, logits, labels, what), ref.sequence_cross_entropy(logits, labels),
                     what, rtol=1e-9, atol=1e-12)
    labels = [0, 2, 1]  # a plain list
    logits = rng.normal(size=(3, 4))
    expect_close(_ce(student, logits, labels, "labels given as a list"),
                 ref.sequence_cross_entropy(logits, labels), "labels given as a list",
                 rtol=1e-9, atol=1e-12)


def test_large_logits_stay_finite(ref, student):
    """logits in the thousands give a finite loss, equal to the reference's wherever moderate logits do"""
    rng = np.random.default_rng(1)
    logits = rng.normal(size=(6, 20))
    labels = rng.integers(0, 20, size=6)
    labels[0] = int(np.argmax(logits[0]))  # one confident hit (loss near 0) among misses
    what = "logits in the thousands"
    loss = _ce(student, logits * 3000.0, labels, what)
    if not math.isfinite(loss):
        fail(f"{what}: the loss is not finite")
    if loss == _ce(student, logits * 2000.0, labels, what):
        fail(f"{what}: the loss did not change when the logits did")
    # Stability is this test's subject: a loss that is wrong for moderate logits too
    # (test_values's subject) is only required to stay finite here.
    moderate = _ce(student, logits, labels, "logits of shape (6, 20)")
    if agrees(moderate, ref.sequence_cross_entropy(logits, labels), rtol=1e-9, atol=1e-12):
        expect_close(loss, ref.sequence_cross_entropy(logits * 3000.0, labels), what,
                     rtol=1e-9, atol=1e-9)
    elif not changed(moderate, _ce(student, logits, (labels + 1) % 20, "other labels"),
                     "logits of shape (6, 20)"):
        # judged on its own terms, it must still be a loss of the labels
        fail("logits of shape (6, 20): the loss did not change when the labels did")
