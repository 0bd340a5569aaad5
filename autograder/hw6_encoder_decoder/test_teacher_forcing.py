"""Hidden tests: teacher_forcing."""
import numpy as np

from autograder.testing import expect_equal, fail, format_test

QUESTION = "teacher_forcing"
CASES = [([127, 340, 68, 57, 412, 322], 1, 2), ([9, 9, 4], 0, 3), (list(range(10, 30)), 7, 8)]
"""Continuations of several tokens: one token and none are test_short_continuations'."""


def _pair(result, what):
    if not isinstance(result, (tuple, list)) or len(result) != 2:
        fail(f"{what}: expected a pair (decoder_input, labels)")
    pair = []
    for part, name in zip(result, ("decoder_input", "labels")):
        if isinstance(part, np.ndarray):
            part = part.tolist()
        if not isinstance(part, (list, tuple)):
            fail(f"{what}: {name} is a {type(part).__name__}, not a list")
        pair.append([int(i) if isinstance(i, (int, np.integer)) else i for i in part])
    return pair


@format_test
def test_lengths(student):
    """both lists are one longer than the continuation"""
    what = "teacher_forcing(the lesson's 6-token continuation, 1, 2)"
    dec, lab = _pair(student.teacher_forcing([127, 340, 68, 57, 412, 322], 1, 2), what)
    expect_equal(len(dec), 7, what + ": length of decoder_input")
    expect_equal(len(lab), 7, what + ": length of labels")


def test_decoder_input_shifted_right(ref, student):
    """decoder_input is sos_id followed by the continuation"""
    for cont, sos, eos in CASES:
        what = f"teacher_forcing({cont}, {sos}, {eos})"
        dec, _ = _pair(student.teacher_forcing(cont, sos, eos), what)
        expect_equal(dec, ref.teacher_forcing(cont, sos, eos)[0], what + ": decoder_input")


def test_labels_end_with_eos(ref, student):
    """labels are the continuation followed by eos_id"""
    for cont, sos, eos in CASES:
        what = f"teacher_forcing({cont}, {sos}, {eos})"
        _, lab = _pair(student.teacher_forcing(cont, sos, eos), what)
        expect_equal(lab, ref.teacher_forcing(cont, sos, eos)[1], what + ": labels")


def test_short_continuations(ref, student):
    """a one-token or empty continuation gives what one token longer gives, without that token"""
    # Compared with the student's own answer for the continuation with token 7777 added,
    # so a layout mistake (the other tests' subject) does not fail this test too; when
    # that answer does not hold the token once in each list, with the contract's layout.
    for cont in ([5], []):
        what = f"teacher_forcing({cont}, 1, 2)"
        dec, lab = _pair(student.teacher_forcing(cont, 1, 2), what)
        longer = [*cont, 7777]
        want = _pair(student.teacher_forcing(longer, 1, 2), f"teacher_forcing({longer}, 1, 2)")
        if all(part.count(7777) == 1 for part in want):
            want = [[t for t in part if t != 7777] for part in want]
        else:
            want = ref.teacher_forcing(cont, 1, 2)
        expect_equal(dec, want[0], what + ": decoder_input")
        expect_equal(lab, want[1], what + ": labels")
