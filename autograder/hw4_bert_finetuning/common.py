"""Shared by the hidden tests of hw4: the documented run, reference results
cached once per batch, and the one piece of code sent into the worker, the
notebook's provided (public, not graded) TinySelfAttn of provided.py.

The documented run (the lesson's figures, checked against the reference in
tests/assignments/test_hw4_bert_finetuning.py): torch.manual_seed(42), build the default model;
torch.manual_seed(99), ids = torch.randint(0, 100, (50, 10)), labels =
torch.randint(0, 2, (50,)); Adam lr 1e-3, 30 full-batch epochs.
"""
from __future__ import annotations

import inspect
import threading
from pathlib import Path

import torch

from autograder.testing import RemoteObject, expect_number, fail, once, seeded
from autograder.hw4_bert_finetuning import reference as ref

MODEL_SEED, DATA_SEED = 42, 99
DEFAULTS = ()  # the constructor's defaults, as a hashable config
SMALL = (("vocab", 30), ("h", 24), ("heads", 6), ("n_layers", 1), ("max_len", 8), ("n_classes", 3))
DEEP = (("vocab", 50), ("h", 16), ("heads", 2), ("n_layers", 3), ("max_len", 12), ("n_classes", 3))

# Tolerance on every epoch's loss. Correct implementations differ from the
# reference by float rounding only: fused scaled_dot_product_attention, a
# closure step, zero_grad(set_to_none=True) stay within 1e-7 over the 30
# epochs; GELU's tanh approximation (BERT's own choice) within 4e-5.
# The smallest departure among the mistakes is 3e-4 (AdamW's weight decay);
# the listed ones (post-norm, ReLU, pooling, positions, residuals, causal
# mask; no zero_grad, loss after the step, SGD) all exceed 3e-2.
TRACE_ATOL = 1e-4
# Tolerance on logits with the reference's weights: rounding gives < 1e-6,
# the tanh GELU < 3e-4 (trained weights); every mistake above moves them by > 0.1.
LOGITS_ATOL, LOGITS_RTOL = 1e-3, 1e-3

# Part 0 of the student notebook (provided.py, which build pastes into the
# master): sent whole and bound under its name before the student's model is
# built, so the model is graded on the answer cells only. It is public code;
# no reference code of a graded stub is ever sent into the worker.
PROVIDED_SOURCE = (Path(__file__).parent / "provided.py").read_text()


def provided_attention(student) -> RemoteObject:
    return student.build(PROVIDED_SOURCE, "provided_attention")


_DEFAULT_ARGS = {name: p.default for name, p in
                 inspect.signature(ref.TinyBertForClassification).parameters.items()}


def config_of(config: tuple) -> dict:
    """Every constructor argument of a config (the reference's defaults filled in)."""
    return {**_DEFAULT_ARGS, **dict(config)}


@once
def data(seed: int, n: int, t: int, vocab: int, n_classes: int):
    """ids (n, t) and labels (n,), drawn as the lesson draws them after torch.manual_seed(seed)."""
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, vocab, (n, t), generator=g)
    labels = torch.randint(0, n_classes, (n,), generator=g)
    return ids, labels


DOCUMENTED_DATA = (DATA_SEED, 50, 10, 100, 2)  # seed, n, t, vocab, n_classes


def documented_data():
    return data(*DOCUMENTED_DATA)


@once
def reference_state(seed: int, config: tuple = DEFAULTS) -> dict:
    """State dict of the reference model built right after torch.manual_seed(seed)."""
    with seeded(seed):
        model = ref.TinyBertForClassification(**dict(config))
    return {k: v.detach().clone() for k, v in model.state_dict().items()}


def reference_model(seed: int, config: tuple = DEFAULTS, state: dict | None = None):
    """The reference model with the state of reference_state(seed, config) or `state`."""
    with seeded(0):  # its initial weights are overwritten; the global RNG is shared
        model = ref.TinyBertForClassification(**dict(config))
    model.load_state_dict(state if state is not None else reference_state(seed, config))
    return model


_LENT = threading.local()


def lent_reference_model(seed: int, config: tuple = DEFAULTS):
    """reference_model(seed, config) for lend_module, which overwrites its parameters
    with the worker's at every forward: one module per grading thread and config,
    its state reset here at each call (0.3 ms; building one took 1.8 ms, eight times a
    submission). A test holds it only while it runs (a thread grades one test at a
    time); a test that lends twice lends the same module twice, one loop after the other."""
    models = _LENT.__dict__.setdefault("models", {})
    model = models.get((seed, config))
    if model is None:
        model = models[seed, config] = reference_model(seed, config)
    else:
        model.load_state_dict(reference_state(seed, config))
    return model


@once
def reference_run(seed: int, config: tuple, data_key: tuple, epochs: int, lr: float):
    """(losses, trained state) of the reference loop on the reference model."""
    model = reference_model(seed, config)
    losses = ref.train_classifier(model, *data(*data_key), epochs=epochs, lr=lr)
    return tuple(losses), {k: v.detach().clone() for k, v in model.state_dict().items()}


def documented_trace() -> tuple:
    return reference_run(MODEL_SEED, DEFAULTS, DOCUMENTED_DATA, 30, 1e-3)[0]


def expect_model(value, what: str) -> RemoteObject:
    if not isinstance(value, RemoteObject):
        fail(f"{what} did not return a module")
    return value


def expect_trace(losses, expected, what: str) -> None:
    """A list of len(expected) numbers, each within TRACE_ATOL of the reference's."""
    if not isinstance(losses, (list, tuple)):
        fail(f"{what}: expected a list of losses, got a {type(losses).__name__}"
             if not isinstance(losses, RemoteObject) else f"{what}: got a {losses.type_name}")
    if len(losses) != len(expected):
        fail(f"{what}: {len(losses)} losses, expected one per epoch ({len(expected)})")
    values = [expect_number(v, f"{what}: loss of epoch {i}") for i, v in enumerate(losses)]
    for i, (v, e) in enumerate(zip(values, expected)):
        if not abs(v - e) <= TRACE_ATOL:
            fail(f"{what}: the loss of epoch {i} differs from the reference run "
                 f"(yours is {v:.4f})")
