"""Hidden tests: TinySelfAttn.

The student's module is driven with the reference's weights, and its
scaled_dot_product_attention is swapped for a proxy whose answers the grader
computes with the reference (a callback: no reference code enters the
worker), so that a bug there costs points on that question only.
"""
import torch

from autograder.testing import (RemoteObject, expect_close, expect_equal, expect_raises,
                                expect_shape, expect_tensor, fail, once, seeded)
from autograder.hw1_attention import reference

QUESTION = "TinySelfAttn"
MAX_SCORES = 1 << 16  # entries of q k^T one lent call may ask for (the tests need < 1,200)
CONFIGS = [(32, 4), (12, 3), (16, 1), (24, 8)]  # (h, heads)


def _attention(q, k, v, mask=None):
    """The reference's attention on what the student's module sends, once it
    is checked to be tensors of a size these tests produce."""
    for t in (q, k, v) + (() if mask is None else (mask,)):
        if not isinstance(t, torch.Tensor) or not t.is_floating_point() or t.dim() > 4:
            raise TypeError("expected float tensors of at most 4 dimensions")
    if q.dim() < 2 or k.dim() < 2 or q.shape[:-2].numel() * q.shape[-2] * k.shape[-2] > MAX_SCORES:
        raise ValueError("q and k must be (..., n, d) and small")
    with torch.no_grad():
        out, weights = reference.scaled_dot_product_attention(q, k, v, mask)
    return out, weights


def _module(student, h, heads):
    if student.has("scaled_dot_product_attention"):
        student.define("scaled_dot_product_attention",
                       student.callback("scaled_dot_product_attention", _attention))
    m = student.TinySelfAttn(h, heads)
    if not isinstance(m, RemoteObject):
        fail(f"TinySelfAttn({h}, {heads}) did not return a module")
    return m


@once
def _reference(ref, h, heads, seed):
    """The reference module built after seeding `seed`, and its state: shared by
    every submission (tests only call it, under no_grad, and send the state)."""
    with seeded(seed):
        reference = ref.TinySelfAttn(h, heads)
    return reference, reference.state_dict()


def _loaded(ref, student, h, heads, seed):
    reference, state = _reference(ref, h, heads, seed)
    m = _module(student, h, heads)
    m.load_state_dict(state)
    return m, reference


def test_parameters(student):
    """has exactly qkv.weight (3h, h), out.weight (h, h) and out.bias (h,)"""
    m = _module(student, 32, 4)
    state = m.state_dict()
    if not isinstance(state, dict):
        fail("state_dict() did not return a dict of tensors")
    expect_equal(sorted(state), ["out.bias", "out.weight", "qkv.weight"],
                 "TinySelfAttn(32, 4).state_dict() keys")
    for key, shape in (("qkv.weight", (96, 32)), ("out.weight", (32, 32)), ("out.bias", (32,))):
        expect_shape(state[key], shape, key)


def test_matches_reference_without_mask(ref, student):
    """with the reference's weights and no mask (every position sees every other), the output matches for several h and head counts"""
    for seed, (h, heads) in enumerate(CONFIGS):
        m, reference = _loaded(ref, student, h, heads, seed)
        x = torch.randn(3, 7, h, generator=torch.Generator().manual_seed(seed))
        what = f"TinySelfAttn({h}, {heads}) on x of shape (3, 7, {h}), called without a mask"
        y = expect_tensor(m(x), what)
        with torch.no_grad():
            expect_close(y, reference(x), what, rtol=1e-4, atol=1e-5)


def test_matches_reference_with_causal_mask(ref, student):
    """with a causal (T, T) mask, the output matches the reference"""
    for seed, (h, heads) in enumerate(CONFIGS[:2]):
        m, reference = _loaded(ref, student, h, heads, 10 + seed)
        x = torch.randn(2, 6, h, generator=torch.Generator().manual_seed(seed))
        mask = ref.causal_mask(6)
        what = f"TinySelfAttn({h}, {heads}) with a causal mask"
        y = expect_tensor(m(x, mask), what)
        with torch.no_grad():
            expect_close(y, reference(x, mask), what, rtol=1e-4, atol=1e-5)


def _expect_uses_weights(student, h, heads):
    """A valid module answers, and its answer depends on its own weights: a stand-in
    that ignores them (a mean of the input) earns nothing. Judged on the student's
    own module and weights, so a values bug costs only the values tests."""
    what = f"TinySelfAttn({h}, {heads}) on x of shape (1, 5, {h})"
    m = _module(student, h, heads)
    x = torch.randn(1, 5, h, generator=torch.Generator().manual_seed(h))
    y = expect_tensor(m(x), what)
    expect_shape(y, (1, 5, h), what)
    state = m.state_dict()
    if not isinstance(state, dict) or not state:
        fail(f"TinySelfAttn({h}, {heads}).state_dict() holds no weights")
    m.load_state_dict({k: v + 0.5 for k, v in state.items()})
    if torch.allclose(expect_tensor(m(x), what), y, atol=1e-6):
        fail(f"{what}: the output stayed the same when every weight changed: "
             "the module does not compute with its weights")


def test_bidirectional_influence(ref, student):
    """computes with its weights; without a mask the last token changes the first output, with a causal mask it cannot"""
    _expect_uses_weights(student, 16, 2)
    m, _ = _loaded(ref, student, 16, 2, 5)
    x = torch.randn(1, 5, 16, generator=torch.Generator().manual_seed(5))
    x2 = x.clone()
    x2[0, -1] += 1.0
    first = lambda y: expect_tensor(y, "TinySelfAttn(16, 2) output")[0, 0]
    if torch.allclose(first(m(x)), first(m(x2)), atol=1e-6):
        fail("without a mask, changing the last token did not change position 0's output: "
             "attention is not bidirectional")
    mask = ref.causal_mask(5)
    if not torch.allclose(first(m(x, mask)), first(m(x2, mask)), atol=1e-6):
        fail("with a causal mask, changing the last token changed position 0's output")


def test_rejects_indivisible_heads(student):
    """answers for valid sizes, and raises ValueError when h is not divisible by heads"""
    _expect_uses_weights(student, 12, 3)
    for h, heads in ((10, 3), (32, 5)):
        with expect_raises(ValueError, f"TinySelfAttn({h}, {heads})"):
            student.TinySelfAttn(h, heads)
