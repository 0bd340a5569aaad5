"""Hidden tests: patchify."""
import numpy as np

from autograder.testing import (Fail, as_array, expect_close, expect_dtype, expect_ndarray,
                                expect_raises, expect_shape, fail, format_test)

QUESTION = "patchify"
CASES = [(2, 64, 8), (1, 12, 3), (3, 20, 5), (4, 16, 16), (2, 10, 1), (5, 36, 6)]  # (C, N, L)


def _signal(C, N, seed):
    return np.random.default_rng(seed).normal(size=(C, N))


@format_test
def test_shape_dtype(student):
    """returns a float64 array of shape (N // patch_len, C * patch_len)"""
    for C, N, L in [case for case in CASES if case[0] > 1][:3]:  # one channel: an edge
        what = f"patchify(signal of shape {(C, N)}, {L})"
        out = expect_ndarray(student.patchify(_signal(C, N, 0), L), what)
        expect_shape(out, (N // L, C * L), what)
        expect_dtype(out, "float64", what)
    ints = np.arange(24, dtype=np.int64).reshape(2, 12)
    expect_dtype(expect_ndarray(student.patchify(ints, 4), "patchify(int signal, 4)"),
                 "float64", "patchify(int signal, 4)")


def test_rows_concatenate_channels(ref, student):
    """row p is channel 0's samples of patch p, then channel 1's, and so on"""
    for seed, (C, N, L) in enumerate(CASES):
        x = _signal(C, N, seed)
        what = f"patchify(signal of shape {(C, N)}, {L})"
        expect_close(student.patchify(x, L), ref.patchify(x, L), what, rtol=0, atol=0)
    # a signal whose values name their (channel, sample): any reordering shows
    labelled = 100.0 * np.arange(3)[:, None] + np.arange(12)[None, :]
    expect_close(student.patchify(labelled, 4), ref.patchify(labelled, 4),
                 "patchify(signal[c, n] = 100 c + n, 4)", rtol=0, atol=0)


def test_rejects_invalid_patch_len(student):
    """answers for a valid patch_len; raises ValueError for one that is not an int >= 1 dividing N"""
    x = _signal(2, 64, 1)
    # A valid call must hold the signal's samples, in whatever order (the order is
    # test_rows_concatenate_channels's subject): rejecting pays only beside an answer.
    what = "patchify(signal of shape (2, 64), 8)"
    out = as_array(student.patchify(x, 8), what)  # not yet numbers: sorted only if they are
    if (out.dtype.kind not in "biuf" or out.size != x.size
            or not np.array_equal(np.sort(out, axis=None), np.sort(x, axis=None))):
        fail(f"{what}: the result does not hold the signal's samples")
    # Every bad value is tried before the first that is not refused fails the test: a
    # diagnosis reads them all (samples dropped shows at 7 and 48, not at 0).
    first = None
    for bad in (0, -8, 7, 48, 2.5, "8"):
        try:
            with expect_raises(ValueError, f"patchify(signal of shape (2, 64), {bad!r})"):
                student.patchify(x, bad)
        except Fail as failure:
            first = first or failure
    if first is not None:
        raise first
