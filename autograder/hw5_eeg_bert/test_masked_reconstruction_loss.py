"""Hidden tests: masked_reconstruction_loss."""
import numpy as np

from autograder.testing import (changed, expect_close, expect_number, expect_raises, fail,
                                format_test)

QUESTION = "masked_reconstruction_loss"
CASES = [(8, 16, [3, 7]), (8, 16, [0]), (5, 4, [0, 2, 4]), (6, 9, [5, 1])]  # (P, L, masked)
SHAPES = [(8, 16), (5, 4), (10, 3), (2, 6)]  # (P, L); one row, one masked row: an edge of its own


def _pair(P, L, seed):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(P, L)), rng.normal(size=(P, L))


def _loss(student, recon, target, masked, what):
    return expect_number(student.masked_reconstruction_loss(recon, target, masked), what)


@format_test
def test_returns_a_number(student):
    """returns one number for (P, L) arrays and a list of masked rows"""
    recon, target = _pair(8, 16, 0)
    _loss(student, recon, target, [3, 7], "masked_reconstruction_loss(recon, target, [3, 7])")


def test_values(ref, student):
    """the mean over the rows of each row's mean squared error (every row masked)"""
    # Every row masked: the formula alone (which rows count is the next test's subject).
    for seed, (P, L) in enumerate(SHAPES):
        recon, target = _pair(P, L, seed)
        for masked in (list(range(P)), np.arange(P)[::-1].copy(), tuple(range(P))):
            what = f"recon and target of shape {(P, L)}, masked={masked!r}"
            expect_close(_loss(student, recon, target, masked, what),
                         ref.masked_reconstruction_loss(recon, target, masked), what,
                         rtol=1e-9, atol=1e-12)


def test_ignores_unmasked_rows(student):
    """only the masked rows count: the loss of those rows alone, whatever the other rows hold"""
    # Compared with the student's own loss, so a wrong formula (the previous test's
    # subject) does not fail this test too.
    for seed, (P, L, masked) in enumerate(CASES):
        recon, target = _pair(P, L, seed)
        what = f"recon and target of shape {(P, L)}, masked={masked}"
        base = _loss(student, recon, target, masked, what)
        alone = _loss(student, recon[masked], target[masked], list(range(len(masked))),
                      what + " with only the masked rows given")
        if not np.isclose(base, alone, rtol=1e-12, atol=1e-12):
            fail(f"{what}: {base!r}, but {alone!r} for the masked rows alone: "
                 "the unmasked rows count")
        others = [p for p in range(P) if p not in masked]
        recon2, target2 = recon.copy(), target.copy()
        recon2[others] += 50.0
        target2[others[:3]] -= 20.0
        changed = _loss(student, recon2, target2, masked, what + ", other rows changed")
        if not np.isclose(base, changed, rtol=1e-12, atol=1e-12):
            fail(f"{what}: the loss changed when only unmasked rows changed")
        _expect_responds(student, recon, target, masked, what)


def _expect_responds(student, recon, target, masked, what):
    """The loss changes when a masked row does: a test judged on the student's own answers
    pays nothing for a constant."""
    moved = recon.copy()
    moved[masked[0]] += 1.0
    after = _loss(student, moved, target, masked, what + ", a masked row changed")
    if not changed(_loss(student, recon, target, masked, what), after, what):
        fail(f"{what}: the loss did not change when a masked row did")


def test_empty_mask_raises(student):
    """answers for masked rows, and raises ValueError when no row is masked"""
    recon, target = _pair(4, 4, 5)
    _expect_responds(student, recon, target, [1, 2], "masked=[1, 2]")
    for masked in ([], np.array([], dtype=np.int64)):
        with expect_raises(ValueError, f"masked_reconstruction_loss(recon, target, {masked!r})"):
            student.masked_reconstruction_loss(recon, target, masked)
