"""Hidden tests: mlm_loss, compared with torch's own F.cross_entropy(ignore_index=-100)."""
from __future__ import annotations

import math

import torch
import torch.nn.functional as F

from autograder.checks import expect_close, expect_shape, expect_tensor, fail

QUESTION = "mlm_loss"
SHAPES = [(2, 7, 11), (13, 5), (3, 4, 6, 9), (1, 1, 4)]  # (..., V)
GRAD = '''
import torch
def run(f, logits, labels):
    x = logits.clone().requires_grad_(True)
    loss = f(x, labels)
    if not isinstance(loss, torch.Tensor) or not loss.requires_grad:
        return None
    loss.backward()
    return x.grad
'''


def _inputs(shape, seed, scale=1.0, selected=0.3, dtype=torch.float32):
    """Logits (..., V) and labels (...): -100 except at about `selected` of the positions
    (at least one), the others uniform class ids."""
    g = torch.Generator().manual_seed(seed)
    logits = (torch.randn(*shape, generator=g, dtype=torch.float64) * scale).to(dtype)
    labels = torch.randint(0, shape[-1], shape[:-1], generator=g)
    keep = torch.rand(shape[:-1], generator=g) < selected
    keep.view(-1)[0] = True
    return logits, torch.where(keep, labels, torch.full_like(labels, -100))


def _expected(logits, labels):
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]).double(), labels.reshape(-1),
                           ignore_index=-100)


def _loss(student, logits, labels, what):
    loss = expect_tensor(student.mlm_loss(logits, labels), what)
    expect_shape(loss, (), what)
    return loss


def test_returns_scalar_tensor(student):
    """returns a 0-d torch.Tensor for logits (B, T, V) and labels (B, T)"""
    logits, labels = _inputs((2, 5, 7), seed=0)
    _loss(student, logits, labels, "mlm_loss(logits (2, 5, 7), labels (2, 5))")


def test_matches_cross_entropy(student):
    """equals F.cross_entropy with ignore_index=-100 for several shapes, float32 and float64"""
    for seed, shape in enumerate(SHAPES):
        for dtype in (torch.float32, torch.float64):
            logits, labels = _inputs(shape, seed, dtype=dtype)
            what = f"mlm_loss(logits {shape} {str(dtype).replace('torch.', '')})"
            expect_close(_loss(student, logits, labels, what), _expected(logits, labels), what,
                         rtol=1e-5, atol=1e-6)


def test_ignored_positions_do_not_count(student):
    """positions labelled -100 change nothing, whatever their logits; all-selected works too"""
    logits, labels = _inputs((4, 9, 6), seed=10, selected=0.2)
    wild = logits.clone()
    wild[labels == -100] = torch.randn(int((labels == -100).sum()), 6,
                                       generator=torch.Generator().manual_seed(3)) * 30
    what = "mlm_loss with other logits at the ignored positions"
    expect_close(_loss(student, wild, labels, what), _expected(logits, labels), what,
                 rtol=1e-5, atol=1e-6)
    single = torch.full_like(labels, -100)
    single[2, 4] = 3
    what = "mlm_loss with a single selected position"
    expect_close(_loss(student, logits, single, what),
                 -torch.log_softmax(logits[2, 4].double(), -1)[3], what, rtol=1e-5, atol=1e-6)
    full, _ = _inputs((3, 5, 8), seed=11)
    every = torch.randint(0, 8, (3, 5), generator=torch.Generator().manual_seed(4))
    what = "mlm_loss with every position selected"
    expect_close(_loss(student, full, every, what), _expected(full, every), what,
                 rtol=1e-5, atol=1e-6)


def test_nothing_selected_is_zero(student):
    """with every label -100 the loss is a 0-d tensor equal to 0.0, not nan"""
    for shape in ((2, 6, 10), (4, 3)):
        logits, _ = _inputs(shape, seed=20)
        what = f"mlm_loss(logits {shape}) with every label -100"
        loss = _loss(student, logits, torch.full(shape[:-1], -100), what)
        if math.isnan(float(loss)):
            fail(f"{what}: the loss is nan; return 0.0 when no position is selected")
        expect_close(loss, torch.tensor(0.0), what, rtol=0, atol=0)


def test_large_logits_stay_finite(student):
    """logits in the thousands give a finite loss equal to torch's"""
    for seed, shape in enumerate(((2, 6, 12), (20, 7))):
        logits, labels = _inputs(shape, seed=30 + seed, scale=2000.0)
        what = f"mlm_loss(logits {shape} in the thousands)"
        loss = _loss(student, logits, labels, what)
        if not torch.isfinite(loss):
            fail(f"{what}: the loss is not finite; use log_softmax or F.cross_entropy")
        expect_close(loss, _expected(logits, labels), what, rtol=1e-5, atol=1e-4)


def test_gradient_flows_to_logits(student):
    """the loss is differentiable: its gradient with respect to the logits matches torch's"""
    f = student.value("mlm_loss")
    for seed, shape in enumerate(((2, 5, 7), (6, 4))):
        logits, labels = _inputs(shape, seed=40 + seed)
        what = f"the gradient of mlm_loss(logits {shape}) with respect to the logits"
        grad = student.build(GRAD, "run", f, logits, labels)
        if grad is None:
            fail(f"{what}: the loss is not a tensor attached to the logits' graph "
                 "(was it built with .item(), numpy or torch.tensor(...)?)")
        x = logits.clone().requires_grad_(True)
        _expected(x, labels).backward()
        expect_close(expect_tensor(grad, what), x.grad, what, rtol=1e-4, atol=1e-6)
