"""Hidden tests: encoder_layer_param_count.

Expected values are torch's own: the parameters of a
torch.nn.TransformerEncoderLayer built on the meta device (shapes, no
storage, so even d = 4096 costs nothing), and for widths torch cannot
build, the reference's closed form, which the other tests hold to torch's counts.
"""

from autograder.hw2_positions_params import layer_counts
from autograder.hw2_positions_params.layer_counts import PAIRS, WIDTHS
from autograder.testing import expect_int, format_test

QUESTION = "encoder_layer_param_count"
LAYER = "TransformerEncoderLayer"


def _check(student, want, d, *d_ff):
    layer_counts.check(student, QUESTION, want, d, *d_ff)


@format_test
def test_returns_int(student):
    """returns an int for a small layer, with and without d_ff"""
    for args in ((8,), (8, 16)):
        what = f"encoder_layer_param_count{args}"
        expect_int(student.encoder_layer_param_count(*args), what)


def test_default_width_matches_torch(student):
    """with d_ff omitted (4 d), equals torch's TransformerEncoderLayer for many d"""
    for d in WIDTHS:
        _check(student, layer_counts.torch_count(LAYER, d, 4 * d), d)


def test_explicit_width_matches_torch(student):
    """with an explicit d_ff, equals torch's TransformerEncoderLayer(d, nhead, d_ff)"""
    for d, d_ff in PAIRS:
        _check(student, layer_counts.torch_count(LAYER, d, d_ff), d, d_ff)


def test_keyword_and_none(student):
    """d_ff given as a keyword counts as given in place, and d_ff=None as d_ff omitted"""
    layer_counts.keyword_and_none(student, QUESTION)


def test_lesson_figures(student):
    """reproduces the lesson's per-layer figures for the base Transformer and BERT-base"""
    _check(student, 3_152_384, 512)        # 12.025 d^2 at d = 512
    _check(student, 3_152_384, 512, 2048)
    _check(student, 7_087_872, 768, 3072)  # one BERT-base layer


def test_huge_widths_closed_form(ref, student):
    """is an exact closed form: correct for widths far too large to build (d up to 10^6)"""
    layer_counts.huge_widths(student, QUESTION, LAYER, ref.encoder_layer_param_count)
