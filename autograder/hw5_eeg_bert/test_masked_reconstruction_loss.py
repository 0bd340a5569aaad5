"""Hidden tests: masked_reconstruction_loss."""
import numpy as np

from autograder.checks import expect_close, expect_number, expect_raises, fail

QUESTION = "masked_reconstruction_loss"
CASES = [(8, 16, [3, 7]), (8, 16, [0]), (5, 4, [0, 2, 4]), (10, 3, list(range(10))), (6, 9, [5, 1])]


def _pair(P, L, seed):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(P, L)), rng.normal(size=(P, L))


def _loss(student, recon, target, masked, what):
    return expect_number(student.masked_reconstruction_loss(recon, target, masked), what)


def test_returns_a_number(student):
    """returns one number for (P, L) arrays and a list of masked rows"""
    recon, target = _pair(8, 16, 0)
    _loss(student, recon, target, [3, 7], "masked_reconstruction_loss(recon, target, [3, 7])")


def test_values(ref, student):
    """the mean, over the masked rows, of each row's mean squared error"""
    for seed, (P, L, masked) in enumerate(CASES):
        recon, target = _pair(P, L, seed)
        what = f"recon and target of shape {(P, L)}, masked={masked}"
        expect_close(_loss(student, recon, target, masked, what),
                     ref.masked_reconstruction_loss(recon, target, masked), what, rtol=1e-9, atol=1e-12)
    recon, target = _pair(6, 5, 9)
    for masked in (np.array([1, 4]), (0, 5)):
        what = f"masked given as {masked!r}"
        expect_close(_loss(student, recon, target, masked, what),
                     ref.masked_reconstruction_loss(recon, target, masked), what, rtol=1e-9, atol=1e-12)


def test_ignores_unmasked_rows(student):
    """changing the unmasked rows of recon or target does not change the loss"""
    recon, target = _pair(8, 16, 3)
    masked = [3, 7]
    base = _loss(student, recon, target, masked, "masked=[3, 7]")
    recon2, target2 = recon.copy(), target.copy()
    others = [p for p in range(8) if p not in masked]
    recon2[others] += 50.0
    target2[others[:3]] -= 20.0
    changed = _loss(student, recon2, target2, masked, "masked=[3, 7], other rows changed")
    if not np.isclose(base, changed, rtol=1e-12, atol=1e-12):
        fail("masked=[3, 7]: the loss changed when only unmasked rows changed")


def test_empty_mask_raises(ref, student):
    """works with masked rows, and raises ValueError when no row is masked"""
    recon, target = _pair(4, 4, 5)
    what = "masked_reconstruction_loss(recon, target, [1, 2])"
    expect_close(_loss(student, recon, target, [1, 2], what),
                 ref.masked_reconstruction_loss(recon, target, [1, 2]), what)
    for masked in ([], np.array([], dtype=np.int64)):
        with expect_raises(ValueError, f"masked_reconstruction_loss(recon, target, {masked!r})"):
            student.masked_reconstruction_loss(recon, target, masked)
