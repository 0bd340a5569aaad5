"""Hidden tests: TinySelfAttn.

The student's module is driven with weights the test chose (the reference's,
mostly), and its scaled_dot_product_attention is swapped for a proxy whose
answers the grader computes with the reference (a callback: no reference code
enters the worker), so that a bug there costs points on that question only.
The proxy answers only the q, k and v the module's forward on the test's own
input and weights can pass (lent_attention.py): never an input the student's
code chose, such as one kept from another question's hidden tests.
"""
import torch

from autograder.testing import (RemoteObject, changed, expect_close, expect_equal, expect_raises,
                                expect_shape, expect_tensor, fail, format_test, once, seeded)
from autograder.hw1_attention import reference
from autograder.hw1_attention.lent_attention import LentAttention

QUESTION = "TinySelfAttn"
CONFIGS = [(32, 4), (12, 3), (16, 1), (24, 8)]  # (h, heads)
MAX_WEIGHTS = 1 << 16  # values a module's state_dict may hold for the weights a test chooses


class _Lender:
    """The grader's attention, lent to the worker and bound to the student's name once
    per test; each forward is answered by the LentAttention of the module it runs
    (the rows its own input and weights allow), made current just before it."""

    def __init__(self, student):
        self.current: LentAttention | None = None
        student.lend("scaled_dot_product_attention", self)  # where the notebook has one

    def __call__(self, *args, **kwargs):
        if self.current is None:  # no module driven yet: nothing this test declared
            raise ValueError("the grader's attention answers only a driven module's forward")
        return self.current(*args, **kwargs)


def _module(student, h, heads):
    """The student's TinySelfAttn(h, heads)."""
    m = student.TinySelfAttn(h, heads)
    if not isinstance(m, RemoteObject):
        fail(f"TinySelfAttn({h}, {heads}) did not return a module")
    return m


class _Driven:
    """The student's module with weights the test loaded: each forward first
    declares its input and those weights to its lent attention."""

    def __init__(self, module, lender: _Lender):
        self.module, self.lender, self.state = module, lender, {}
        self.lent = LentAttention(reference.scaled_dot_product_attention)
        self._load = None  # module.load_state_dict, asked for once: a round trip

    def load(self, state: dict) -> None:
        if self._load is None:
            self._load = self.module.load_state_dict
        self._load(state)
        self.state = state

    def __call__(self, x, *mask):
        self.lent.allow(x, self.state)
        self.lender.current = self.lent
        return self.module(x, *mask)


def _driven(student, lender: _Lender, h, heads) -> _Driven:
    return _Driven(_module(student, h, heads), lender)


@once
def _reference(ref, h, heads, seed):
    """The reference module built after seeding `seed`, and its state: shared by
    every submission (tests only call it, under no_grad, and send the state)."""
    with seeded(seed):
        reference = ref.TinySelfAttn(h, heads)
    return reference, reference.state_dict()


def _loaded(ref, student, lender, h, heads, seed):
    reference, state = _reference(ref, h, heads, seed)
    m = _driven(student, lender, h, heads)
    m.load(state)
    return m, reference


@format_test
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
    lender = _Lender(student)
    for seed, (h, heads) in enumerate(CONFIGS):
        m, reference = _loaded(ref, student, lender, h, heads, seed)
        x = torch.randn(3, 7, h, generator=torch.Generator().manual_seed(seed))
        what = f"TinySelfAttn({h}, {heads}) on x of shape (3, 7, {h}), called without a mask"
        y = expect_tensor(m(x), what)
        with torch.no_grad():
            expect_close(y, reference(x), what, rtol=1e-4, atol=1e-5)


def test_matches_reference_with_causal_mask(ref, student):
    """with a causal (T, T) mask, the output matches the reference"""
    lender = _Lender(student)
    for seed, (h, heads) in enumerate(CONFIGS[:2]):
        m, reference = _loaded(ref, student, lender, h, heads, 10 + seed)
        x = torch.randn(2, 6, h, generator=torch.Generator().manual_seed(seed))
        mask = ref.causal_mask(6)
        what = f"TinySelfAttn({h}, {heads}) with a causal mask"
        y = expect_tensor(m(x, mask), what)
        with torch.no_grad():
            expect_close(y, reference(x, mask), what, rtol=1e-4, atol=1e-5)


def _chosen_weights(state) -> dict | None:
    """Values the test chooses for the weights a module has (its own keys and shapes,
    whatever they are): seeded, of nn.Linear's scale; None for a state that is not a
    dict of at most MAX_WEIGHTS float values."""
    if not isinstance(state, dict) or not state or not all(
            isinstance(v, torch.Tensor) and v.is_floating_point() for v in state.values()):
        return None
    if sum(v.numel() for v in state.values()) > MAX_WEIGHTS:
        return None
    g = torch.Generator().manual_seed(len(state))
    fan_in = lambda v: max(v.shape[-1], 1) if v.dim() else 1
    return {k: (torch.rand(v.shape, generator=g) * 2 - 1) / fan_in(v) ** 0.5
            for k, v in state.items()}


def _expect_uses_weights(student, lender, h, heads):
    """A valid module answers, and its answer depends on its weights: a stand-in
    that ignores them (a mean of the input) or answers nan earns nothing. Judged on
    the student's own module, with weights the test chose in the module's own
    shapes, so a values bug costs only the values tests."""
    what = f"TinySelfAttn({h}, {heads}) on x of shape (2, 5, {h})"
    m = _driven(student, lender, h, heads)
    x = torch.randn(2, 5, h, generator=torch.Generator().manual_seed(h))
    chosen = _chosen_weights(m.module.state_dict())
    if chosen is not None:
        m.load(chosen)
    y = expect_tensor(m(x), what)  # its shape is the values tests' subject
    if chosen is None:
        fail(f"TinySelfAttn({h}, {heads}).state_dict() holds no weights (a dict of at most "
             f"{MAX_WEIGHTS} float values)")
    m.load({k: v + 0.5 for k, v in chosen.items()})
    if not changed(y, expect_tensor(m(x), what), what, rtol=1e-5, atol=1e-6):
        fail(f"{what}: the output stayed the same when every weight changed: "
             "the module does not compute with its weights")


def test_bidirectional_influence(ref, student):
    """computes with its weights; without a mask the last token changes the first output, with a causal mask it cannot"""
    lender = _Lender(student)
    _expect_uses_weights(student, lender, 16, 2)
    m, _ = _loaded(ref, student, lender, 16, 2, 5)
    x = torch.randn(1, 5, 16, generator=torch.Generator().manual_seed(5))
    x2 = x.clone()
    x2[0, -1] += 1.0
    what = "TinySelfAttn(16, 2) output"
    first = lambda y: expect_tensor(y, what)[0, 0]
    if not changed(first(m(x)), first(m(x2)), what, rtol=1e-5, atol=1e-6):
        fail("without a mask, changing the last token did not change position 0's output: "
             "attention is not bidirectional")
    mask = ref.causal_mask(5)
    masked = first(m(x, mask))
    if changed(masked, first(m(x2, mask)), what, rtol=1e-5, atol=1e-6):
        fail("with a causal mask, changing the last token changed position 0's output")
    # What a causal mask must leave: position 0 still sees itself (an output of
    # zeros, or a constant, with a mask would pass the line above).
    x3 = x.clone()
    x3[0, 0] += 1.0
    if not changed(masked, first(m(x3, mask)), what, rtol=1e-5, atol=1e-6):
        fail("with a causal mask, changing the first token did not change position 0's "
             "output: the masked output does not depend on the input")


def test_rejects_indivisible_heads(student):
    """answers for valid sizes, and raises ValueError when h is not divisible by heads"""
    _expect_uses_weights(student, _Lender(student), 12, 3)
    for h, heads in ((10, 3), (32, 5)):
        with expect_raises(ValueError, f"TinySelfAttn({h}, {heads})"):
            student.TinySelfAttn(h, heads)
