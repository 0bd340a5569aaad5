"""Hidden tests: decoder_layer_param_count.

Expected values are torch's own (TransformerDecoderLayer on the meta
device). A decoder count may be written on top of encoder_layer_param_count;
that helper is swapped for a proxy whose answers the grader computes with the
reference (a callback: no reference code enters the worker), so that a
mistake in the encoder count costs points on that question only. The proxy
answers only the widths the test has asked the student's decoder count about:
never widths the student's code chose.
"""
import numbers

from autograder.hw2_positions_params import layer_counts, reference
from autograder.hw2_positions_params.layer_counts import PAIRS, WIDTHS
from autograder.testing import as_int, expect_equal, expect_int, format_test

QUESTION = "decoder_layer_param_count"
LAYER = "TransformerDecoderLayer"
MAX_WIDTH = 10**7  # widths the lent encoder count accepts (the tests use up to 10^6)


class _LentEncoderCount:
    """The reference's encoder count, for the widths of the decoder counts the test
    asked for: an encoder count at widths the student's code chose could be one of
    encoder_layer_param_count's hidden answers."""

    def __init__(self):
        self.asked: set[tuple[int, int]] = set()  # (d, d_ff), d_ff omitted counted as 4 d

    def allow(self, d, d_ff=None) -> None:
        self.asked.add(_widths(d, d_ff))

    def __call__(self, d, d_ff=None):
        widths = _widths(d, d_ff)
        if widths not in self.asked:
            raise ValueError("the grader's encoder_layer_param_count, lent for this test, "
                             "answers only the widths the test gives decoder_layer_param_count")
        return int(reference.encoder_layer_param_count(*widths))


def _widths(d, d_ff) -> tuple[int, int]:
    """(d, d_ff) as ints of a sane size, d_ff None as 4 d."""
    for width in (d, 4 if d_ff is None else d_ff):
        if isinstance(width, bool) or not isinstance(width, numbers.Integral) \
                or not 1 <= width <= MAX_WIDTH:
            raise ValueError(f"widths must be ints from 1 to {MAX_WIDTH}")
    return int(d), 4 * int(d) if d_ff is None else int(d_ff)


class _Student:
    """The student, whose decoder count first lets the lent encoder count answer
    the widths it is asked about."""

    def __init__(self, student, lent: _LentEncoderCount):
        self._student, self._lent = student, lent

    def decoder_layer_param_count(self, d, *args, **kwargs):
        self._lent.allow(d, *args, **kwargs)
        return self._student.decoder_layer_param_count(d, *args, **kwargs)


def _student(student):
    lent = _LentEncoderCount()
    if not student.lend("encoder_layer_param_count", lent):
        return student
    return _Student(student, lent)


def _check(student, want, d, *d_ff):
    layer_counts.check(student, QUESTION, want, d, *d_ff)


@format_test
def test_returns_int(student):
    """returns an int for a small layer, with and without d_ff"""
    student = _student(student)
    for args in ((8,), (8, 16)):
        what = f"decoder_layer_param_count{args}"
        expect_int(student.decoder_layer_param_count(*args), what)


def test_default_width_matches_torch(student):
    """with d_ff omitted (4 d), equals torch's TransformerDecoderLayer for many d"""
    student = _student(student)
    for d in WIDTHS:
        _check(student, layer_counts.torch_count(LAYER, d, 4 * d), d)


def test_explicit_width_matches_torch(student):
    """with an explicit d_ff, equals torch's TransformerDecoderLayer(d, nhead, d_ff)"""
    student = _student(student)
    for d, d_ff in PAIRS:
        _check(student, layer_counts.torch_count(LAYER, d, d_ff), d, d_ff)


def test_keyword_and_none(student):
    """d_ff given as a keyword counts as given in place, and d_ff=None as d_ff omitted"""
    layer_counts.keyword_and_none(_student(student), QUESTION)


def test_lesson_figures(student):
    """reproduces the lesson's decoder-layer figure and the 6 + 6 base Transformer's total"""
    student = _student(student)
    _check(student, 4_204_032, 512)  # 16.037 d^2 at d = 512
    what = "6 encoder layers + 6 decoder layers + 2 final LayerNorms at d = 512"
    enc = 3_152_384
    dec = as_int(student.decoder_layer_param_count(512), "decoder_layer_param_count(512)")
    expect_equal(6 * enc + 6 * dec + 2 * 2 * 512, 44_140_544, what)


def test_huge_widths_closed_form(ref, student):
    """is an exact closed form: correct for widths far too large to build (d up to 10^6)"""
    layer_counts.huge_widths(_student(student), QUESTION, LAYER, ref.decoder_layer_param_count)
