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

What must stay true: the sources sent to the worker below are generic (they
implement no stub of any assignment), and everything that comes back is
checked before use.
"""
from __future__ import annotations

from typing import Callable

import torch
from torch import nn

from autograder.checks import fail
from autograder.engine.callbacks import MAX_CALLS

# Worker side of lend_module: parameters here, output and gradients from the grader.
LENT_MODULE = '''
import torch


class _ComputedByGrader(torch.autograd.Function):
    @staticmethod
    def forward(ctx, lent, inputs, *weights):
        ctx.lent, ctx.inputs = lent, inputs
        ctx.save_for_backward(*weights)
        return lent.grader_forward(list(inputs), [w.detach() for w in weights])

    @staticmethod
    def backward(ctx, grad):
        weights = [w.detach() for w in ctx.saved_tensors]
        return (None, None, *ctx.lent.grader_backward(list(ctx.inputs), weights, grad))


class LentModule(torch.nn.Module):
    """Holds parameters; the grader computes its output and their gradients."""

    def __init__(self, values, grader_forward, grader_backward):
        super().__init__()
        self.weights = torch.nn.ParameterList(torch.nn.Parameter(v) for v in values)
        self.grader_forward, self.grader_backward = grader_forward, grader_backward

    def forward(self, *inputs):
        return _ComputedByGrader.apply(self, inputs, *self.weights)


def make(values, grader_forward, grader_backward):
    return LentModule(values, grader_forward, grader_backward)
'''

# Worker side of StudentModule: the student's module run on parameter values
# the grader sends, then backpropagated from an output gradient it sends.
DIFFERENTIATOR = '''
import torch


class Differentiator:
    def __init__(self, module):
        self.module = module
        self.params = dict(module.named_parameters())
        self.output = None

    def values(self):
        return {name: p.detach() for name, p in self.params.items()}

    def forward(self, values, *inputs):
        with torch.no_grad():
            for name, value in values.items():
                self.params[name].copy_(value)
        self.module.zero_grad(set_to_none=True)
        self.output = self.module(*inputs)
        return self.output

    def backward(self, grad):
        self.output.backward(grad)
        return {name: p.grad for name, p in self.params.items()}


def make(module):
    return Differentiator(module)
'''


def lend_module(student, module: nn.Module, check_inputs: Callable, max_calls: int = MAX_CALLS):
    """A module in the worker that starts with the parameters of `module` (the
    grader's, trusted) and whose forward and backward the grader computes with
    `module`, on the parameter values the worker sends. check_inputs(inputs)
    raises for inputs the test would not send (it bounds the grader's work).
    Returns the worker's handle, for the rest of the current test; `module`
    belongs to this test alone (its parameters are overwritten)."""
    params = [p for _, p in module.named_parameters()]
    last: dict = {}  # the latest forward's graph: the backward that follows reuses it

    def load(values) -> None:
        if type(values) is not list or len(values) != len(params) or not all(
                isinstance(v, torch.Tensor) and v.dtype == p.dtype and v.shape == p.shape
                for v, p in zip(values, params)):
            raise ValueError("the parameters no longer match the model's (shape or dtype)")
        with torch.no_grad():
            for p, v in zip(params, values):
                p.copy_(v)

    def forward(inputs, values):
        check_inputs(inputs)
        load(values)
        with torch.enable_grad():
            out = module(*inputs)
        last.update(inputs=inputs, values=values, out=out)
        return out.detach()

    def backward(inputs, values, grad):
        check_inputs(inputs)
        if not (_equal(inputs, last.get("inputs")) and _equal(values, last.get("values"))):
            forward(inputs, values)
        out = last["out"]
        if not isinstance(grad, torch.Tensor) or grad.shape != out.shape:
            raise ValueError("the output's gradient does not match the output")
        return list(torch.autograd.grad(out, params, grad.to(out.dtype), retain_graph=True,
                                        allow_unused=True))

    tag = f"{type(module).__name__}@{id(module):x}"
    return student.build(LENT_MODULE, "make", [p.detach() for p in params],
                         student.callback(tag + ".forward", forward, max_calls=max_calls),
                         student.callback(tag + ".backward", backward, max_calls=max_calls))


def _equal(a: list, b: list | None) -> bool:
    return b is not None and len(a) == len(b) and all(
        type(x) is type(y) and (torch.equal(x, y) if isinstance(x, torch.Tensor) else x == y)
        for x, y in zip(a, b))


class _ComputedByStudent(torch.autograd.Function):
    @staticmethod
    def forward(ctx, remote, inputs, *weights):
        ctx.remote = remote
        return remote.run_forward(weights, inputs)

    @staticmethod
    def backward(ctx, grad):
        return (None, None, *ctx.remote.run_backward(grad))


class StudentModule(nn.Module):
    """The student's module (a handle) as a module of the grader: its parameters
    are copied here and trained here; each forward sends their values to the
    worker, which runs the student's forward, and each backward sends the
    output's gradient, which the worker backpropagates. check_output(value)
    returns the output as a tensor or fails the test."""

    def __init__(self, student, module, check_output: Callable):
        super().__init__()
        remote = _Remote(student.build(DIFFERENTIATOR, "make", module), check_output)
        values = remote.differentiator.values()
        if not isinstance(values, dict) or not all(
                isinstance(v, torch.Tensor) and v.is_floating_point() for v in values.values()):
            fail("the model's named_parameters() are not floating-point tensors")
        if not values:
            fail("the model has no parameters to train")
        remote.names = list(values)
        self.weights = nn.ParameterList(nn.Parameter(v.detach().clone()) for v in values.values())
        self._remote = remote

    def forward(self, *inputs):
        return _ComputedByStudent.apply(self._remote, inputs, *self.weights)


class _Remote:
    def __init__(self, differentiator, check_output: Callable):
        self.differentiator, self.check_output = differentiator, check_output
        self.names: list[str] = []
        self.shapes: list[tuple] = []

    def run_forward(self, weights, inputs):
        self.shapes = [tuple(w.shape) for w in weights]
        values = {n: w.detach() for n, w in zip(self.names, weights)}
        return self.check_output(self.differentiator.forward(values, *inputs)).detach()

    def run_backward(self, grad):
        grads = self.differentiator.backward(grad.contiguous())
        if not isinstance(grads, dict):
            fail("the model's gradients are not a dict of tensors")
        out = []
        for name, shape in zip(self.names, self.shapes):
            g = grads.get(name)
            if g is not None and (not isinstance(g, torch.Tensor) or tuple(g.shape) != shape):
                fail(f"the gradient of {name} is not a tensor of its shape")
            out.append(g)
        return out

