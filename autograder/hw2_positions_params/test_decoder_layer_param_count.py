"""Hidden tests: decoder_layer_param_count.

Expected values are torch's own (TransformerDecoderLayer on the meta
device). A decoder count may be written on top of encoder_layer_param_count;
that helper is swapped for a proxy whose answers the grader computes with the
reference (a callback: no reference code enters the worker), so that a
mistake in the encoder count costs points on that question only.
"""
import numbers

import torch

from autograder.testing import agrees, as_int, expect_equal, expect_int, fail, once
from autograder.hw2_positions_params import reference

QUESTION = "decoder_layer_param_count"
MAX_WIDTH = 10**7  # widths the lent encoder count accepts (the tests use up to 10^6)
WIDTHS = [1, 2, 3, 4, 6, 8, 10, 16, 33, 64, 100, 512, 768, 1024, 4096]
PAIRS = [(8, 1), (8, 8), (16, 100), (512, 2048), (768, 3072), (64, 7), (10, 2048), (3, 5),
         (1024, 4096), (100, 1)]  # (d, d_ff)


@once
def torch_count(d: int, d_ff: int) -> int:
    layer = torch.nn.TransformerDecoderLayer(d, 1, d_ff, device="meta")
    return sum(p.numel() for p in layer.parameters())


def _encoder_count(d, d_ff=None):
    """The reference's encoder count, for widths that are ints of a sane size."""
    for width in (d, 4 if d_ff is None else d_ff):
        if isinstance(width, bool) or not isinstance(width, numbers.Integral) \
                or not 1 <= width <= MAX_WIDTH:
            raise ValueError(f"widths must be ints from 1 to {MAX_WIDTH}")
    return int(reference.encoder_layer_param_count(int(d), None if d_ff is None else int(d_ff)))


def _student(student):
    if student.has("encoder_layer_param_count"):
        student.define("encoder_layer_param_count",
                       student.callback("encoder_layer_param_count", _encoder_count))
    return student


def _check(student, want, d, *d_ff):
    what = f"decoder_layer_param_count({', '.join(map(str, (d, *d_ff)))})"
    expect_equal(as_int(student.decoder_layer_param_count(d, *d_ff), what), want, what)


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
        _check(student, torch_count(d, 4 * d), d)


def test_explicit_width_matches_torch(student):
    """with an explicit d_ff, equals torch's TransformerDecoderLayer(d, nhead, d_ff)"""
    student = _student(student)
    for d, d_ff in PAIRS:
        _check(student, torch_count(d, d_ff), d, d_ff)


def test_keyword_and_none(student):
    """d_ff given as a keyword counts as given in place, and d_ff=None as d_ff omitted"""
    # Compared with the student's own counts, so a wrong count (the other tests' subject)
    # does not fail this test too.
    f = _student(student).decoder_layer_param_count
    checks = (((12,), {"d_ff": 30}, (12, 30)), ((12,), {"d_ff": None}, (12,)),
              ((40,), {"d_ff": None}, (40,)))
    for args, kwargs, same in checks:
        what = f"decoder_layer_param_count({args[0]}, d_ff={kwargs['d_ff']})"
        expect_equal(f(*args, **kwargs), f(*same), f"{what}, compared with "
                     f"decoder_layer_param_count{same}")
    if f(12, d_ff=30) == f(13, d_ff=30):
        fail("decoder_layer_param_count(12, d_ff=30) and (13, d_ff=30) are equal: d is ignored")


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
    # Exactness at huge widths is this test's subject: a formula that is wrong for small
    # widths too (the other tests' subject) need only give whole numbers here.
    student = _student(student)
    small = all(agrees(as_int(student.decoder_layer_param_count(*args), "a count"),
                       torch_count(args[0], args[-1] if len(args) > 1 else 4 * args[0]),
                       rtol=0, atol=0) for args in ((8, 32), (64, 7), (8,), (16,)))
    for d, d_ff in ((100_000, None), (10**6, None), (123_457, 999_999)):
        args = (d,) if d_ff is None else (d, d_ff)
        if small:
            _check(student, ref.decoder_layer_param_count(*args), *args)
        else:
            as_int(student.decoder_layer_param_count(*args),
                   f"decoder_layer_param_count{args}")
