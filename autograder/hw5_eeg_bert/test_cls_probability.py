"""Hidden tests: cls_probability."""
import numpy as np

from autograder.testing import agrees, expect_close, expect_number, fail

QUESTION = "cls_probability"
# the lesson's [CLS] head, as printed to 4 decimals; b_c = 0
H_CLS = [-0.3946, 1.3115, -0.2359, -0.2945, -1.8269, -0.2055, 1.6127, 0.0333]
W_C = [-0.0796, 0.4269, 0.0815, 0.1528, 0.1913, 0.0470, 0.1838, -0.0418]


def _p(student, h, w, b, what):
    return expect_number(student.cls_probability(np.asarray(h, dtype=np.float64),
                                                 np.asarray(w, dtype=np.float64), b), what)


def test_seed_example(student):
    """reproduces the lesson's P(seizure) for its [CLS] vector"""
    # 0.613727 = sigmoid(0.463005); the 4-decimal inputs move the logit by < 1e-4
    expect_close(_p(student, H_CLS, W_C, 0.0, "the lesson's [CLS] head"), 0.613727,
                 "the lesson's [CLS] head", rtol=0, atol=5e-5)


def test_values(ref, student):
    """matches sigmoid(h . w + b) on random inputs, with and without a bias"""
    rng = np.random.default_rng(0)
    for i, d in enumerate((8, 3, 16, 1, 32)):
        h, w = rng.normal(size=d), rng.normal(size=d)
        b = float(rng.normal()) if i % 2 else 0.0
        what = f"cls_probability(h of size {d}, w, b={b:.3f})"
        expect_close(_p(student, h, w, b, what), ref.cls_probability(h, w, b), what,
                     rtol=1e-9, atol=1e-12)


def test_extreme_logits(ref, student):
    """stays finite and within [0, 1] for logits of +-1000 and of 0, and matches the reference"""
    # Stability is this test's subject: a function that is not the sigmoid for moderate
    # logits either (test_values's subject) is only required to stay finite here.
    moderate = [(_p(student, [1.0, 0.0], [z, 3.0], 0.0, f"a logit of {z:g}"),
                 ref.cls_probability(np.array([1.0, 0.0]), np.array([z, 3.0]), 0.0))
                for z in (-3.0, -0.5, 2.0)]
    sigmoid = all(agrees(p, want, rtol=1e-9, atol=1e-12) for p, want in moderate)
    if len({p for p, _ in moderate}) == 1:
        fail("cls_probability gives the same value for logits -3, -0.5 and 2")
    # 0 is where a stable sigmoid's two branches meet: `if z > 0 ... elif z < 0` has none
    for logit in (1000.0, -1000.0, 745.0, -745.0, 40.0, -40.0, 0.0):
        h, w = np.array([1.0, 0.0]), np.array([logit, 3.0])
        what = f"cls_probability with a logit of {logit:g}"
        p = _p(student, h, w, 0.0, what)
        if not np.isfinite(p) or (sigmoid and not 0.0 <= p <= 1.0):
            fail(f"{what}: yours is {p!r}, not a probability")
        if sigmoid:
            expect_close(p, ref.cls_probability(h, w, 0.0), what, rtol=1e-9, atol=1e-12)
