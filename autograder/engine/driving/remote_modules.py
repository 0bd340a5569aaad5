"""Torch modules whose parameters live on one side of the trust boundary and
whose computation runs on the other, so that a test can train one side's
module with the other side's code without sending any graded code anywhere.

* lend_module: a module in the worker (handed to the student's training loop)
  whose output and gradients the grader computes with its own trusted module,
  through callbacks. The worker receives generic code and parameter values only.
* StudentModule: the student's module seen from the grader, with its
  parameters copied here, so that the reference loop (optimiser and loss)
  runs in the grader while the worker computes only the student's forward and
  backward, through generic helpers.

What must stay true: the sources sent to the worker (sent_to_worker/) are generic
(they implement no stub of any assignment), and everything that comes back is
checked before use.
"""
from __future__ import annotations

import hashlib
import threading
from typing import Callable

import torch
from torch import nn

from autograder.engine.driving.fail import fail
from autograder.engine.driving.sent import sent_source
from autograder.engine.isolation.callbacks import MAX_CALLS

# Worker side of lend_module: parameters here, output and gradients from the grader.
LENT_MODULE = sent_source(__file__, "lent_module")

# Worker side of StudentModule: the student's module run on parameter values
# the grader sends (all of them in one vector), then backpropagated from an
# output gradient it sends; the gradients go back in one vector too.
DIFFERENTIATOR = sent_source(__file__, "differentiator")


class Memo:
    """Answers of lent modules already computed, shared by every test that lends
    a module of the same code and configuration: correct training loops send
    the same parameter values, so their answers are computed once per batch.
    Bounded (oldest entries go first) and safe to share between threads."""

    def __init__(self, size: int = 256):
        self._items: dict = {}
        self._size = size
        self._lock = threading.Lock()

    def get(self, key):
        with self._lock:
            return self._items.get(key)

    def put(self, key, value) -> None:
        with self._lock:
            self._items[key] = value
            while len(self._items) > self._size:
                del self._items[next(iter(self._items))]


def lend_module(student, module: nn.Module, check_inputs: Callable, memo: Memo | None = None,
                max_calls: int = MAX_CALLS, targets: torch.Tensor | None = None):
    """A module in the worker that starts with the parameters of `module` (the
    grader's, trusted) and whose forward and backward the grader computes with
    `module`, on the parameter values the worker sends. check_inputs(inputs)
    raises for inputs the test did not make (tensors only: hw4 accepts rows of
    the ids it gave the loop), so that no input of the student's choosing is
    answered and the grader's work is bounded; `memo` may be shared by the
    tests lending the same model.
    Returns the worker's handle, for the rest of the current test; `module`
    belongs to this test alone (its parameters are overwritten). The worker's
    module has the parameters of `module`, one by one (an optimizer sees them
    as they are); their values and gradients cross in one vector each way.
    With `targets` (the labels the training is expected to use), each forward
    also answers the parameters' gradients for the output gradient of the mean
    cross-entropy against them: a backward from exactly that gradient needs no
    second call (any other gradient calls back as without targets)."""
    params = _parameters(module)
    memo = Memo() if memo is None else memo
    last: dict = {}  # the latest values and graph computed here, for the backward after them

    def digest(values) -> bytes:
        """The values' digest; the same values as the last call's reuse it."""
        _check_vector(params, values)
        if "values" not in last or not torch.equal(last["values"], values):
            last.update(values=values, digest=_digest([values]), key=None)
        return last["digest"]

    def run(inputs, values, key) -> torch.Tensor:
        _load(params, values)
        with torch.enable_grad():
            last.update(key=key, out=module(*inputs))
        return last["out"]

    def gradients(inputs, values, key: tuple, grad) -> torch.Tensor:
        """The parameters' gradients for the output gradient `grad`; key: the digests of
        inputs and values."""
        memo_key = ("grads", *key, _digest([grad]))
        grads = memo.get(memo_key)
        if grads is None:
            out = last["out"] if last.get("key") == key else run(inputs, values, key)
            if grad.shape != out.shape:
                raise ValueError("the output's gradient does not match the output")
            grads = _vector(torch.autograd.grad(out, params, grad.to(out.dtype),
                                                retain_graph=True, allow_unused=True), params)
            memo.put(memo_key, grads)
        return grads

    def forward(inputs, values):
        check_inputs(inputs)
        key = (_digest(inputs), digest(values))
        out = memo.get(("out", *key))
        if out is None:
            out = run(inputs, values, key).detach()
            memo.put(("out", *key), out)
        grad = None if targets is None else _loss_gradient(out, targets)
        return out if grad is None else [out, grad, gradients(inputs, values, key, grad)]

    def backward(inputs, values, grad):
        check_inputs(inputs)
        return gradients(inputs, values, (_digest(inputs), digest(values)), grad)

    tag = f"{type(module).__name__}@{id(module):x}"
    return student.build(LENT_MODULE, "make", [p.detach() for p in params],
                         student.callback(tag + ".forward", forward, max_calls=max_calls),
                         student.callback(tag + ".backward", backward, max_calls=max_calls))


def _loss_gradient(out: torch.Tensor, targets: torch.Tensor) -> torch.Tensor | None:
    """d/d out of the mean cross-entropy of out (N, classes) against targets (N,), as a
    training loop's loss.backward() computes it; None for an output of another shape."""
    if out.dim() != 2 or out.shape[0] != len(targets) or not out.is_floating_point():
        return None
    out = out.detach().requires_grad_(True)
    with torch.enable_grad():
        return torch.autograd.grad(nn.functional.cross_entropy(out, targets), out)[0]


def _parameters(module: nn.Module) -> list:
    params = [p for _, p in module.named_parameters()]
    if len({p.dtype for p in params}) != 1:
        raise ValueError("a lent module's parameters must share one dtype")
    return params


def _vector(grads, params: list) -> torch.Tensor:
    """The gradients as one vector, zeros for a parameter the output does not use."""
    return torch.cat([torch.zeros(p.numel(), dtype=p.dtype) if g is None else g.reshape(-1)
                      for g, p in zip(grads, params)])


def _check_vector(params: list, values) -> None:
    """The worker's parameter values: one vector, of the parameters' dtype and size."""
    if not isinstance(values, torch.Tensor) or values.dim() != 1 \
            or values.dtype != params[0].dtype or len(values) != sum(p.numel() for p in params):
        raise ValueError("the parameters no longer match the model's (size or dtype)")


def _load(params: list, values: torch.Tensor) -> None:
    """Copy the values the worker sent (checked by _check_vector) into the grader's parameters."""
    with torch.no_grad():
        for p, part in zip(params, values.split([p.numel() for p in params])):
            p.copy_(part.view_as(p))


def _digest(tensors) -> bytes:
    """A fingerprint of a list of tensors: dtypes, shapes and bytes."""
    if type(tensors) is not list or not all(isinstance(t, torch.Tensor) for t in tensors):
        raise TypeError("expected a list of tensors")
    h = hashlib.blake2b(digest_size=16)
    for t in tensors:
        h.update(f"{t.dtype}{tuple(t.shape)};".encode())
        h.update(t.detach().contiguous().reshape(-1).view(torch.uint8).numpy())
    return h.digest()


class _ComputedByStudent(torch.autograd.Function):
    @staticmethod
    def forward(ctx, remote, inputs, weights):
        ctx.remote = remote
        output, ctx.speculated = remote.run_forward(weights, inputs)
        return output

    @staticmethod
    def backward(ctx, grad):
        return None, None, ctx.remote.run_backward(grad, ctx.speculated)


class StudentModule(nn.Module):
    """The student's module (a handle) as a module of the grader: its parameters
    are copied here, as one vector, and trained here; each forward sends their
    values to the worker, which runs the student's forward, and each backward
    sends the output's gradient, which the worker backpropagates. (An optimiser
    acts on each entry alone, so one vector trains as the separate tensors
    would.) check_output(value) returns the output as a tensor or fails the test.
    With `targets` (the labels the training uses), each forward also brings the
    gradients the worker computed for the mean cross-entropy against them: a
    backward from exactly that output gradient needs no second request (any
    other gradient is backpropagated by a request, as without targets)."""

    def __init__(self, student, module, check_output: Callable,
                 targets: torch.Tensor | None = None):
        super().__init__()
        self._remote = _Remote(student.build(DIFFERENTIATOR, "make", module), check_output,
                               targets)
        values = self._remote.differentiator.values()
        if not isinstance(values, torch.Tensor) or not values.is_floating_point() \
                or values.dim() != 1:
            fail("the model's parameters are not floating-point tensors of one dtype")
        if not len(values):
            fail("the model has no parameters to train")
        self.weights = nn.Parameter(values.clone())

    def forward(self, *inputs):
        return _ComputedByStudent.apply(self._remote, inputs, self.weights)


class _Remote:
    def __init__(self, differentiator, check_output: Callable, targets):
        self.differentiator, self.check_output, self.targets = differentiator, check_output, targets
        # the methods' handles, fetched once: each step is then one request, not two
        self.backward = differentiator.backward
        self.forward = differentiator.forward if targets is None else \
            differentiator.forward_backward
        self.size = 0

    def run_forward(self, weights, inputs) -> tuple:
        """(the output, (output gradient, parameter gradients) computed with it or None)."""
        self.size = len(weights)
        if self.targets is None:
            return self.check_output(self.forward(weights.detach(), *inputs)).detach(), None
        answer = self.forward(weights.detach(), self.targets, *inputs)
        if not isinstance(answer, list) or len(answer) != 3:
            fail("the model's forward pass did not answer")
        output, grad, grads = answer
        output = self.check_output(output).detach()
        speculated = isinstance(grad, torch.Tensor) and grad.shape == output.shape \
            and grad.dtype == output.dtype and isinstance(grads, torch.Tensor)
        return output, (grad, grads) if speculated else None

    def run_backward(self, grad, speculated):
        if speculated is not None and torch.equal(speculated[0], grad):
            grads = speculated[1]
        else:
            grads = self.backward(grad.contiguous())
        if not isinstance(grads, torch.Tensor) or tuple(grads.shape) != (self.size,):
            fail("the model's gradients are not one value per parameter")
        return grads
