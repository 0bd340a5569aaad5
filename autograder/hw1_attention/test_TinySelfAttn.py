"""Hidden tests: TinySelfAttn.

The student's module is driven with the reference's weights, and its
scaled_dot_product_attention is swapped for a known-good one first, so that a
bug there costs points on that question only.
"""
import torch

from autograder.checks import (expect_close, expect_equal, expect_raises, expect_shape,
                               expect_tensor, fail, seeded)
from autograder.engine.student import RemoteObject

QUESTION = "TinySelfAttn"
KNOWN_GOOD_SDPA = '''
import math, torch
def make():
    def scaled_dot_product_attention(q, k, v, mask=None):
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
        if mask is not None:
            scores = scores + mask
        weights = torch.softmax(scores, dim=-1)
        return weights @ v, weights
    return scaled_dot_product_attention
'''
CONFIGS = [(32, 4), (12, 3), (16, 1), (24, 8)]  # (h, heads)


def _module(student, h, heads):
    if student.has("scaled_dot_product_attention"):
        student.define("scaled_dot_product_attention", student.build(KNOWN_GOOD_SDPA, "make"))
    m = student.TinySelfAttn(h, heads)
    if not isinstance(m, RemoteObject):
        fail(f"TinySelfAttn({h}, {heads}) did not return a module")
    return m


def _loaded(ref, student, h, heads, seed):
    with seeded(seed):
        reference = ref.TinySelfAttn(h, heads)
    m = _module(student, h, heads)
    m.load_state_dict(reference.state_dict())
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


def test_bidirectional_influence(ref, student):
    """without a mask the last token changes the first output; with a causal mask it cannot"""
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
    """raises ValueError when h is not divisible by heads"""
    for h, heads in ((10, 3), (32, 5)):
        with expect_raises(ValueError, f"TinySelfAttn({h}, {heads})"):
            student.TinySelfAttn(h, heads)
