"""Hidden tests: mlm_loss, compared with torch's own F.cross_entropy(ignore_index=-100)."""
from __future__ import annotations

import math

import numpy as np
import torch
import torch.nn.functional as F

from autograder.testing import (agrees, as_array, expect_close, expect_number, expect_shape,
                                expect_tensor, fail, format_test, sent_source)

QUESTION = "mlm_loss"
SHAPES = [(14, 11), (13, 5), (72, 9), (1, 4)]  # (N, V): the leading dimensions have their own test
LEADING = [(2, 7, 11), (3, 4, 6, 9), (1, 1, 4), (5, 1, 3)]  # (..., V)
GRAD = sent_source(__file__, "mlm_loss_grad")


def _inputs(shape, seed, scale=1.0, selected=0.3, dtype=torch.float32):
    """Logits (..., V) and labels (...): -100 except at about `selected` of the positions
    (at least one; all for 1.0), the others uniform class ids."""
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
    """The student's loss as a float; a tensor, a numpy or a Python number is read (that it
    is a 0-d tensor is test_returns_scalar_tensor's subject)."""
    return expect_number(student.mlm_loss(logits, labels), what)


def _same(a, b, rtol=1e-6, atol=1e-7) -> bool:
    """Two of the student's own results agree (nan agrees with nan)."""
    return bool(np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=True))


@format_test
def test_returns_scalar_tensor(student):
    """returns a 0-d torch.Tensor for logits (N, V) and labels (N,), also when nothing is selected"""
    logits, labels = _inputs((10, 7), seed=0)
    for lab, case in ((labels, "labels (10,)"), (torch.full((10,), -100), "every label -100")):
        what = f"mlm_loss(logits (10, 7), {case})"
        loss = expect_tensor(student.mlm_loss(logits, lab), what)
        expect_shape(loss, (), what)


def test_matches_cross_entropy(student):
    """equals the mean cross-entropy over the positions, for logits (N, V), float32 and float64"""
    # Every position selected: the value alone (ignoring -100 is the next test's subject).
    for seed, shape in enumerate(SHAPES):
        for dtype in (torch.float32, torch.float64):
            logits, labels = _inputs(shape, seed, selected=1.0, dtype=dtype)
            what = f"mlm_loss(logits {shape} {str(dtype).replace('torch.', '')}, no label -100)"
            expect_close(_loss(student, logits, labels, what), _expected(logits, labels), what,
                         rtol=1e-5, atol=1e-6)


def test_leading_dimensions(student):
    """logits (..., V) with any leading dimensions give the loss of their (N, V) flattening"""
    # Compared with the student's own loss on the flattened tensors, so a wrong value (the
    # previous test's subject) does not fail this test too.
    for seed, shape in enumerate(LEADING):
        logits, labels = _inputs(shape, seed=50 + seed)
        what = f"mlm_loss(logits {shape}, labels {shape[:-1]})"
        loss = _loss(student, logits, labels, what)
        flat = _loss(student, logits.reshape(-1, shape[-1]), labels.reshape(-1),
                     what + " flattened to (N, V)")
        if not _same(loss, flat):
            fail(f"{what}: {loss!r}, but {flat!r} for the same positions flattened to "
                 "logits (N, V) and labels (N,): read the last dimension as the vocabulary")
    _expect_responds(student, (2, 7, 11))


def _expect_responds(student, shape):
    """The loss depends on the logits of selected positions and on their labels: a test
    whose subject is compared with the student's own answers pays nothing for a constant,
    nor for a function of the logits alone (a log-sum-exp never reads the labels)."""
    logits, labels = _inputs(shape, seed=60)
    what = f"mlm_loss(logits {shape}, labels {shape[:-1]})"
    a = _loss(student, logits, labels, what)
    b = _loss(student, logits * 2.0 + 1.0, labels, what + " with other logits")
    if _same(a, b):
        fail(f"{what}: the loss did not change when the logits of the selected positions did")
    relabelled = torch.where(labels == -100, labels, (labels + 1) % shape[-1])
    if _same(a, _loss(student, logits, relabelled, what + " with other labels")):
        fail(f"{what}: the loss did not change when the labels of the selected positions did")


def test_ignored_positions_do_not_count(student):
    """positions labelled -100 change nothing: the same loss as with them left out, whatever their logits"""
    # Compared with the student's own loss, so a wrong value (the previous test's subject)
    # does not fail this test: only counting the ignored positions does.
    for seed, (shape, share) in enumerate((((36, 6), 0.2), ((15, 8), 0.5), ((6, 7), 0.3))):
        logits, labels = _inputs(shape, seed=10 + seed, selected=share)
        keep = labels != -100
        what = f"mlm_loss(logits {shape}, labels with {int(keep.sum())} of {keep.numel()} selected)"
        loss = _loss(student, logits, labels, what)
        alone = _loss(student, logits[keep], labels[keep], what + " with the -100 ones left out")
        if not _same(loss, alone):
            fail(f"{what}: {loss!r}, but {alone!r} with the ignored positions left out "
                 "(logits (K, V) of the K selected ones): ignored positions count")
        wild = logits.clone()
        wild[~keep] = torch.randn(int((~keep).sum()), shape[-1],
                                  generator=torch.Generator().manual_seed(3)) * 30
        other = _loss(student, wild, labels, what + " and other logits at ignored positions")
        if not _same(loss, other):
            fail(f"{what}: the loss changed when only the logits of ignored positions changed")
    # Every label -100 too: test_nothing_selected_is_zero leaves a loss that depends on the
    # ignored logits there to this test (nan agrees with nan: that one is its subject).
    shape = (12, 10)
    ignored = torch.full(shape[:-1], -100)
    what = f"mlm_loss(logits {shape}) with every label -100"
    losses = [_loss(student, _inputs(shape, seed=s)[0] * scale, ignored, what)
              for s, scale in ((20, 1.0), (21, 30.0))]
    if not _same(*losses):
        fail(f"{what}: the loss changed when only the logits of ignored positions changed")
    _expect_responds(student, (36, 6))


def test_nothing_selected_is_zero(student):
    """with every label -100 the loss is 0.0, not nan"""
    for shape in ((12, 10), (4, 3)):
        ignored = torch.full(shape[:-1], -100)
        what = f"mlm_loss(logits {shape}) with every label -100"
        losses = [_loss(student, _inputs(shape, seed=s)[0], ignored, what) for s in (20, 21)]
        if math.isnan(losses[0]):
            fail(f"{what}: the loss is nan; return a 0-d tensor equal to 0.0 when no position "
                 "is selected")
        if not _same(*losses):
            continue  # it depends on ignored logits: test_ignored_positions_do_not_count's subject
        if losses[0] != 0.0:
            fail(f"{what}: the loss is {losses[0]!r}; return a 0-d tensor equal to 0.0 when no "
                 "position is selected")
    _expect_responds(student, (12, 10))


def test_large_logits_stay_finite(student):
    """logits in the thousands give a finite loss, equal to torch's wherever moderate logits do"""
    for seed, shape in enumerate(((12, 12), (20, 7))):
        logits, labels = _inputs(shape, seed=30 + seed)
        what = f"mlm_loss(logits {shape} in the thousands)"
        loss = _loss(student, logits * 2000.0, labels, what)
        if not math.isfinite(loss):
            fail(f"{what}: the loss is {loss!r}, not finite; use log_softmax or F.cross_entropy")
        if _same(loss, _loss(student, logits * 3000.0, labels, what)):
            fail(f"{what}: the loss did not change when the logits did")
        # Stability, not the value, is this test's subject: a loss that is wrong for moderate
        # logits too (test_matches_cross_entropy's subject) is only required to stay finite.
        moderate = _loss(student, logits, labels, f"mlm_loss(logits {shape})")
        if agrees(moderate, _expected(logits, labels), rtol=1e-5, atol=1e-6):
            expect_close(loss, _expected(logits * 2000.0, labels), what, rtol=1e-5, atol=1e-4)
        else:  # judged on its own terms: it must still be a loss of the logits and labels
            _expect_responds(student, shape)


def test_gradient_flows_to_logits(student):
    """the loss is differentiable: its gradient with respect to the logits is the loss's own slope"""
    f = student.value("mlm_loss")
    for seed, shape in enumerate(((10, 7), (6, 4))):
        logits, labels = _inputs(shape, seed=40 + seed, dtype=torch.float64)
        what = f"the gradient of mlm_loss(logits {shape}) with respect to the logits"
        grad = student.build(GRAD, "run", f, logits, labels)
        if grad is None:
            fail(f"{what}: the loss is not a tensor attached to the logits' graph "
                 "(was it built with .item(), numpy or torch.tensor(...)?)")
        grad = as_array(expect_tensor(grad, what), what).astype(np.float64)
        expect_shape(grad, tuple(shape), what)
        # Compared with the student's own loss (its central difference along a random unit
        # direction), so a wrong value elsewhere does not fail this test.
        direction = torch.randn(shape, generator=torch.Generator().manual_seed(seed),
                                dtype=torch.float64)
        direction /= direction.norm()
        h = 1e-4
        slope = (_loss(student, logits + h * direction, labels, what)
                 - _loss(student, logits - h * direction, labels, what)) / (2 * h)
        along = float((grad * direction.numpy()).sum())
        if not agrees(along, slope, rtol=1e-3, atol=1e-5):
            fail(f"{what}: along a random direction it gives a slope of {along:.6g}, but the "
                 f"loss itself changes at a rate of {slope:.6g}")
    _expect_responds(student, (10, 7))  # a constant attached to the logits has slope 0 too
