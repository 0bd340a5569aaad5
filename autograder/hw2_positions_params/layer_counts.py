"""Shared by the hidden tests of encoder_layer_param_count and
decoder_layer_param_count: the two questions ask the same of a count (torch's
figure for many widths, d_ff as a keyword or None, a closed form exact at huge
widths), each of its own torch layer. `name` is the stub's name, `layer` the
torch.nn class its counts are held to.
"""
import torch

from autograder.testing import agrees, as_int, expect_equal, fail, once

WIDTHS = [33, 1, 2, 3, 4, 6, 8, 10, 16, 64, 100, 512, 768, 1024, 4096]
"""33 first: a test stops at its first wrong count, and at d = 1 (d^2 = d = 1) most wrong
formulas give one of a few numbers, so a diagnosis would be matched by coincidence
(attention and two LayerNorms, 4 d^2 + 8 d, is 12 d^2 there)."""
PAIRS = [(8, 1), (8, 8), (16, 100), (512, 2048), (768, 3072), (64, 7), (10, 2048), (3, 5),
         (1024, 4096), (100, 1)]  # (d, d_ff)
SMALL = ((8, 32), (64, 7), (8,), (16,))  # args whose counts torch builds, read before huge ones
HUGE = ((100_000, None), (10**6, None), (123_457, 999_999))  # (d, d_ff) torch cannot build


@once
def torch_count(layer: str, d: int, d_ff: int) -> int:
    """The parameters of torch.nn.<layer>(d, 1, d_ff), built on the meta device."""
    module = getattr(torch.nn, layer)(d, 1, d_ff, device="meta")
    return sum(p.numel() for p in module.parameters())


def check(student, name: str, want: int, d, *d_ff) -> None:
    what = f"{name}({', '.join(map(str, (d, *d_ff)))})"
    expect_equal(as_int(getattr(student, name)(d, *d_ff), what), want, what)


def _expect_a_count(count: int, d: int, what: str) -> None:
    """For a test that judges a count on its own terms: at least d^2 (a layer holds a
    d x d matrix at least), so a stand-in (0, d, a constant) earns nothing."""
    if count < d * d:
        fail(f"{what} is {count}, below d^2 = {d * d}: a layer holds at least one d x d "
             "matrix")


def keyword_and_none(student, name: str) -> None:
    """d_ff as a keyword counts as given in place, d_ff=None as omitted, and d matters."""
    # Compared with the student's own counts, so a wrong count (the other tests' subject)
    # does not fail this test too.
    f = getattr(student, name)
    checks = (((12,), {"d_ff": 30}, (12, 30)), ((12,), {"d_ff": None}, (12,)),
              ((40,), {"d_ff": None}, (40,)))
    for args, kwargs, same in checks:
        what = f"{name}({args[0]}, d_ff={kwargs['d_ff']})"
        expect_equal(f(*args, **kwargs), f(*same), f"{what}, compared with {name}{same}")
    if f(12, d_ff=30) == f(13, d_ff=30):
        fail(f"{name}(12, d_ff=30) and (13, d_ff=30) are equal: d is ignored")
    _expect_a_count(as_int(f(40), f"{name}(40)"), 40, f"{name}(40)")


def huge_widths(student, name: str, layer: str, closed_form) -> None:
    """Exact at widths torch cannot build (closed_form: the reference's count)."""
    # Exactness at huge widths is this test's subject: a formula that is wrong for small
    # widths too (the other tests' subject) need only give whole numbers here.
    f = getattr(student, name)
    small = all(agrees(as_int(f(*args), "a count"),
                       torch_count(layer, args[0], args[-1] if len(args) > 1 else 4 * args[0]),
                       rtol=0, atol=0) for args in SMALL)
    for d, d_ff in HUGE:
        args = (d,) if d_ff is None else (d, d_ff)
        if small:
            check(student, name, closed_form(*args), *args)
        else:
            _expect_a_count(as_int(f(*args), f"{name}{args}"), d, f"{name}{args}")
