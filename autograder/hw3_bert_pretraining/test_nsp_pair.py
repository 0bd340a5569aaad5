"""Hidden tests: nsp_pair, exact."""
from __future__ import annotations

from autograder.testing import expect_equal, fail, format_test, sent_source

QUESTION = "nsp_pair"
CLS, SEP = 101, 102
PAIRS = [([7, 8, 9], [10, 11]), ([5, 4], [6, 7, 8, 9]), ([2000, 2001, 2002, 2003], [3, 4]),
         ([1, 2, 3, 4, 5, 6, 7], [8, 9, 10, 11, 12, 13])]
"""Sentences of two tokens or more: one token and none are test_empty_sentences' subject."""
UNTOUCHED = sent_source(__file__, "nsp_pair_untouched")


def _pair(student, a, b, cls_id=CLS, sep_id=SEP):
    what = f"nsp_pair({a}, {b}, {cls_id}, {sep_id})"
    out = student.nsp_pair(list(a), list(b), cls_id, sep_id)
    if not isinstance(out, tuple) or len(out) != 2:
        fail(f"{what}: expected a tuple (input_ids, segment_ids), got {type(out).__name__}")
    for name, seq in zip(("input_ids", "segment_ids"), out):
        if not isinstance(seq, list):
            fail(f"{what}: {name} should be a list, got {type(seq).__name__}")
    return out, what


def _expected(a, b, cls_id=CLS, sep_id=SEP):
    return [cls_id, *a, sep_id, *b, sep_id], [0] * (len(a) + 2) + [1] * (len(b) + 1)


@format_test
def test_returns_two_lists(student):
    """returns a tuple of two lists of the same length"""
    (ids, seg), what = _pair(student, [7, 8], [9, 10])
    if len(ids) != len(seg):
        fail(f"{what}: input_ids has length {len(ids)} but segment_ids {len(seg)}")


def test_input_ids_layout(student):
    """input_ids is [CLS] A [SEP] B [SEP] for several pairs and special ids"""
    for i, (a, b) in enumerate(PAIRS):
        cls_id, sep_id = (CLS, SEP) if i % 2 == 0 else (1, 2)
        (ids, _), what = _pair(student, a, b, cls_id, sep_id)
        expect_equal(ids, _expected(a, b, cls_id, sep_id)[0], f"{what}: input_ids")


def test_segment_ids(student):
    """segment 0 covers [CLS], A and the first [SEP]; segment 1 covers the rest (B and the last [SEP])"""
    # Read against the student's own input_ids (up to their first [SEP]), so a layout
    # mistake (the previous test's subject) does not fail this test too.
    for a, b in PAIRS:
        (ids, seg), what = _pair(student, a, b)
        if len(ids) < len(a) + len(b) + 2:
            fail(f"{what}: input_ids has {len(ids)} ids, too few to hold [CLS], A, [SEP] and "
                 "B, so their segments cannot be checked")
        first_sep = ids.index(SEP) if SEP in ids else len(a) + 1
        want = [0] * (first_sep + 1) + [1] * (len(ids) - first_sep - 1)
        expect_equal(seg, want, f"{what}: segment_ids (for your input_ids)")


def test_empty_sentences(student):
    """an empty A or B gives what a one-token A or B gives, without that token"""
    # Compared with the student's own answer for a one-token sentence (token 7777), so a
    # layout or segment mistake (the other tests' subjects) does not fail this test too;
    # when that answer does not hold the token once, with the contract's layout.
    for a, b in (([], [4, 5]), ([4, 5], []), ([], [])):
        (ids, seg), what = _pair(student, a, b)
        want = _without_token(student, a or [7777], b or [7777], 7777)
        if want is None:
            want = _expected(a, b)
        expect_equal(ids, want[0], f"{what}: input_ids")
        expect_equal(seg, want[1], f"{what}: segment_ids")


def _without_token(student, a, b, token):
    """The student's (input_ids, segment_ids) for (a, b) with every `token` taken out,
    or None when its input_ids do not hold as many `token`s as a and b do."""
    (ids, seg), _ = _pair(student, a, b)
    if ids.count(token) != (a + b).count(token) or len(ids) != len(seg):
        return None
    kept = [i for i, t in enumerate(ids) if t != token]
    return [ids[i] for i in kept], [seg[i] for i in kept]


def test_inputs_not_modified(student):
    """tokens_a and tokens_b are left unchanged"""
    f = student.value("nsp_pair")
    answered, unchanged = student.build(UNTOUCHED, "run", f, [7, 8, 9], [10, 11], CLS, SEP)
    if not answered:
        fail("nsp_pair([7, 8, 9], [10, 11], ...) did not return a pair (input_ids, segment_ids)")
    (ids, _), what = _pair(student, [7, 8, 9], [10, 11])
    if not all(t in ids for t in (7, 8, 9, 10, 11)):
        fail(f"{what}: input_ids does not hold the tokens of both sentences")
    if not unchanged:
        fail("nsp_pair([7, 8, 9], [10, 11], ...) modified tokens_a or tokens_b in place")
