"""Hidden tests: encoder_layer_param_count.

Expected values are torch's own: the parameters of a
torch.nn.TransformerEncoderLayer built on the meta device (shapes, no
storage, so even d = 4096 costs nothing), and for widths torch cannot
build, the reference's closed form, which the other tests hold to torch's counts.
"""

import torch

from autograder.testing import agrees, as_int, expect_equal, expect_int, fail, once

QUESTION = "encoder_layer_param_count"
WIDTHS = [1, 2, 3, 4, 6, 8, 10, 16, 33, 64, 100, 512, 768, 1024, 4096]
PAIRS = [(8, 1), (8, 8), (16, 100), (512, 2048), (768, 3072), (64, 7), (10, 2048), (3, 5),
         (1024, 4096), (100, 1)]  # (d, d_ff)


@once
def torch_count(d: int, d_ff: int) -> int:
    layer = torch.nn.TransformerEncoderLayer(d, 1, d_ff, device="meta")
    return sum(p.numel() for p in layer.parameters())


def _check(student, want, d, *d_ff):
    what = f"encoder_layer_param_count({', '.join(map(str, (d, *d_ff)))})"
    expect_equal(as_int(student.encoder_layer_param_count(d, *d_ff), what), want, what)


def test_returns_int(student):
    """returns an int for a small layer, with and without d_ff"""
    for args in ((8,), (8, 16)):
        what = f"encoder_layer_param_count{args}"
        expect_int(student.encoder_layer_param_count(*args), what)


def test_default_width_matches_torch(student):
    """with d_ff omitted (4 d), equals torch's TransformerEncoderLayer for many d"""
    for d in WIDTHS:
        _check(student, torch_count(d, 4 * d), d)


def test_explicit_width_matches_torch(student):
    """with an explicit d_ff, equals torch's TransformerEncoderLayer(d, nhead, d_ff)"""
    for d, d_ff in PAIRS:
        _check(student, torch_count(d, d_ff), d, d_ff)


def test_keyword_and_none(student):
    """d_ff given as a keyword counts as given in place, and d_ff=None as d_ff omitted"""
    # Compared with the student's own counts, so a wrong count (the other tests' subject)
    # does not fail this test too.
    f = student.encoder_layer_param_count
    checks = (((12,), {"d_ff": 30}, (12, 30)), ((12,), {"d_ff": None}, (12,)),
              ((40,), {"d_ff": None}, (40,)))
    for args, kwargs, same in checks:
        what = f"encoder_layer_param_count({args[0]}, d_ff={kwargs['d_ff']})"
        expect_equal(f(*args, **kwargs), f(*same), f"{what}, compared with "
                     f"encoder_layer_param_count{same}")
    if f(12, d_ff=30) == f(13, d_ff=30):
        fail("encoder_layer_param_count(12, d_ff=30) and (13, d_ff=30) are equal: d is ignored")


def test_lesson_figures(student):
    """reproduces the lesson's per-layer figures for the base Transformer and BERT-base"""
    _check(student, 3_152_384, 512)        # 12.025 d^2 at d = 512
    _check(student, 3_152_384, 512, 2048)
    _check(student, 7_087_872, 768, 3072)  # one BERT-base layer


def test_huge_widths_closed_form(ref, student):
    """is an exact closed form: correct for widths far too large to build (d up to 10^6)"""
    # Exactness at huge widths is this test's subject: a formula that is wrong for small
    # widths too (the other tests' subject) need only give whole numbers here.
    small = all(agrees(as_int(student.encoder_layer_param_count(*args), "a count"),
                       torch_count(args[0], args[-1] if len(args) > 1 else 4 * args[0]),
                       rtol=0, atol=0) for args in ((8, 32), (64, 7), (8,), (16,)))
    for d, d_ff in ((100_000, None), (10**6, None), (123_457, 999_999)):
        args = (d,) if d_ff is None else (d, d_ff)
        if small:
            _check(student, ref.encoder_layer_param_count(*args), *args)
        else:
            as_int(student.encoder_layer_param_count(*args),
                   f"encoder_layer_param_count{args}")
