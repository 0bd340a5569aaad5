"""Hidden tests: mlm_loss, compared with torch's own F.cross_entropy(ignore_index=-100)."""
from __future__ import annotations

import math

import numpy as np
import torch
import torch.nn.functional as F

from autograder.testing import (StudentError, agrees, as_array, expect_close, expect_number,
                                expect_shape, expect_tensor, fail, format_test, sent_source)

QUESTION = "mlm_loss"
SHAPES = [(2, 7, 11), (3, 6, 5), (4, 18, 9), (2, 3, 4)]
"""(batch, seq, V), as the lesson's MLM head gives them: every test but the next
one's subject uses these, with no dimension of size 1 (an edge of its own) and seq
never equal to V (a loss that reads dimension 1 as the classes would raise there)."""
LEADING = [(14, 11), (3, 4, 6, 9), (1, 1, 4), (5, 1, 3)]
"""(..., V): other leading dimensions, test_leading_dimensions' subject."""
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


def _at_its_rank(call, logits, labels):
    """call(logits, labels), the student's answer; when it raises for logits of rank 3
    or more, its answer for the same positions flattened to (N, V) instead. A loss
    written for one rank is judged on each test's subject all the same: the rank is
    test_leading_dimensions' subject alone (one assumption, one test)."""
    try:
        return call(logits, labels)
    except StudentError as raised:
        if logits.dim() == 2:
            raise
        try:
            return call(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1))
        except StudentError:
            raise raised from None


def _loss(student, logits, labels, what):
    """The student's loss as a float; a tensor, a numpy or a Python number is read (that it
    is a 0-d tensor is test_returns_scalar_tensor's subject)."""
    return expect_number(_at_its_rank(student.mlm_loss, logits, labels), what)


def _same(a, b, rtol=1e-6, atol=1e-7) -> bool:
    """Two of the student's own results agree (nan agrees with nan)."""
    return bool(np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=True))


@format_test
def test_returns_scalar_tensor(student):
    """returns a 0-d torch.Tensor for logits (B, T, V) and labels (B, T), also when nothing is selected"""
    logits, labels = _inputs((2, 5, 7), seed=0)
    for lab, case in ((labels, "labels (2, 5)"), (torch.full((2, 5), -100), "every label -100")):
        what = f"mlm_loss(logits (2, 5, 7), {case})"
        loss = expect_tensor(_at_its_rank(student.mlm_loss, logits, lab), what)
        expect_shape(loss, (), what)


def test_matches_cross_entropy(student):
    """equals the mean cross-entropy over the positions, for logits (B, T, V), float32 and float64"""
    # Every position selected: the value alone (ignoring -100 is the next test's subject).
    for seed, shape in enumerate(SHAPES):
        for dtype in (torch.float32, torch.float64):
            logits, labels = _inputs(shape, seed, selected=1.0, dtype=dtype)
            what = f"mlm_loss(logits {shape} {str(dtype).replace('torch.', '')}, no label -100)"
            expect_close(_loss(student, logits, labels, what), _expected(logits, labels), what,
                         rtol=1e-5, atol=1e-6)


def test_leading_dimensions(student):
    """logits (..., V) with any leading dimensions, (N, V) included, give the loss of their (N, V) flattening"""
    # Compared with the student's own loss on the flattened tensors, so a wrong value (the
    # previous test's subject) does not fail this test too.
    for seed, shape in enumerate(LEADING):
        logits, labels = _inputs(shape, seed=50 + seed)
        what = f"mlm_loss(logits {shape}, labels {shape[:-1]})"
        loss = expect_number(student.mlm_loss(logits, labels), what)  # this rank, no other
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
    """positions labelled -100 change nothing: more of them, or other logits there, leave the loss as it was; it is the mean over every selected position, whatever its row"""
    # Compared with the student's own loss, so a wrong value (the previous test's subject)
    # does not fail this test: only counting the ignored positions does.
    for seed, (shape, share) in enumerate((((4, 9, 6), 0.2), ((3, 5, 8), 0.5), ((2, 3, 7), 0.3))):
        logits, labels = _inputs(shape, seed=10 + seed, selected=share)
        keep = labels != -100
        what = f"mlm_loss(logits {shape}, labels with {int(keep.sum())} of {keep.numel()} selected)"
        loss = _loss(student, logits, labels, what)
        extra = torch.randn(shape[0], 5, shape[-1], generator=torch.Generator().manual_seed(seed))
        padded = _loss(student, torch.cat([logits, extra], dim=1),  # seq + 5 is never V
                       torch.cat([labels, torch.full((shape[0], 5), -100)], dim=1),
                       what + " with 5 more positions labelled -100 in each row")
        if not _same(loss, padded):
            fail(f"{what}: {loss!r}, but {padded!r} with 5 more ignored positions in each row: "
                 "ignored positions count")
        order = torch.randperm(keep.numel(), generator=torch.Generator().manual_seed(seed))
        moved = _loss(student, logits.reshape(-1, shape[-1])[order].reshape(shape),
                      labels.reshape(-1)[order].reshape(shape[:-1]),
                      what + " with its positions shuffled across the rows")
        if not _same(loss, moved):
            fail(f"{what}: {loss!r}, but {moved!r} with the same positions shuffled across the "
                 "rows: average over every selected position at once, not row by row")
        wild = logits.clone()
        wild[~keep] = torch.randn(int((~keep).sum()), shape[-1],
                                  generator=torch.Generator().manual_seed(3)) * 30
        other = _loss(student, wild, labels, what + " and other logits at ignored positions")
        if not _same(loss, other):
            fail(f"{what}: the loss changed when only the logits of ignored positions changed")
    # Every label -100 too: test_nothing_selected_is_zero leaves a loss that depends on the
    # ignored logits there to this test (nan agrees with nan: that one is its subject).
    shape = (3, 4, 10)
    ignored = torch.full(shape[:-1], -100)
    what = f"mlm_loss(logits {shape}) with every label -100"
    losses = [_loss(student, _inputs(shape, seed=s)[0] * scale, ignored, what)
              for s, scale in ((20, 1.0), (21, 30.0))]
    if not _same(*losses):
        fail(f"{what}: the loss changed when only the logits of ignored positions changed")
    _expect_responds(student, (4, 9, 6))


def test_nothing_selected_is_zero(student):
    """with every label -100 the loss is 0.0, not nan; with one label left, that position's loss"""
    for shape in ((3, 4, 10), (2, 2, 3)):
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
    # One label left: the count the sum is divided by is 1 (a floor kept for 0 must not
    # reach it). Judged where the loss is right with several labels, the value being
    # test_matches_cross_entropy's subject.
    logits, labels = _inputs((2, 3, 5), seed=22)
    one = torch.full_like(labels, -100)
    one[1, 2] = 3
    what = "mlm_loss(logits (2, 3, 5)) with one label left"
    if agrees(_loss(student, logits, labels, "mlm_loss(logits (2, 3, 5))"),
              _expected(logits, labels), rtol=1e-5, atol=1e-6):
        expect_close(_loss(student, logits, one, what), _expected(logits, one), what,
                     rtol=1e-5, atol=1e-6)
    _expect_responds(student, (3, 4, 10))


def test_large_logits_stay_finite(student):
    """logits in the thousands give a finite loss, equal to torch's wherever moderate logits do"""
    for seed, shape in enumerate(((3, 4, 12), (4, 5, 7))):
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
    for seed, shape in enumerate(((2, 5, 7), (2, 3, 4))):
        logits, labels = _inputs(shape, seed=40 + seed, dtype=torch.float64)
        what = f"the gradient of mlm_loss(logits {shape}) with respect to the logits"
        grad = _at_its_rank(lambda lo, la: student.build(GRAD, "run", f, lo, la), logits, labels)
        if grad is not None and tuple(getattr(grad, "shape", ())) == (logits.numel() // shape[-1],
                                                                      shape[-1]):
            grad = grad.reshape(shape)  # answered for the positions flattened (_at_its_rank)
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
    _expect_responds(student, (2, 5, 7))  # a constant attached to the logits has slope 0 too
