"""Hidden tests: train_classifier.

The model handed to the student's loop holds the reference's weights, and its
forward and backward are computed by the grader with the reference model (a
module lent through callbacks: the worker holds only the parameters and
generic code), so a bug in the student's TinyBertForClassification costs
nothing here. The lent model answers only the ids the test gave the loop
(any of their rows, in any order): a forward on ids the student's code chose,
such as ones kept from TinyBertForClassification's hidden tests, could be one
of that question's expected answers.
"""
import functools
import numbers

import torch

from autograder.testing import (Memo, RemoteObject, changed, expect_number, expect_tensor, fail,
                                format_test, lend_module, once, sent_source)
from autograder.hw4_bert_finetuning import common
from autograder.hw4_bert_finetuning.common import DEFAULTS, MODEL_SEED, SMALL

QUESTION = "train_classifier"
SMALL_DATA = (7, 16, 6, 30, 3)  # seed, n, t, vocab, n_classes (fits SMALL)
SMALL_SEED = 11
RUNS = ((5, 3e-3), (12, 1e-4))  # (epochs, lr) that differ from the defaults
STALE_RUN = (3, 3e-3)  # (epochs, lr) of the run that starts with gradients on the model

# Generic code run in the worker: the model handed to the loop already holds gradients
# (seeded, of the size of real ones or larger, as after an evaluation's backward), or none
# with seed None.
STALE_GRADIENTS = sent_source(__file__, "stale_gradients")


MAX_BATCH = 1024  # ids rows the lent model computes in one call (the tests send 50)


def _reference_model(student, ids, labels, seed=MODEL_SEED, config=DEFAULTS):
    """A model in the worker with the reference's weights, computed by the grader for
    the rows of `ids` (each forward also answers the gradients of the cross-entropy
    against labels)."""
    return lend_module(student, common.lent_reference_model(seed, config),
                       functools.partial(_check_ids, ids), _memo(config), targets=labels)


@once
def _memo(config: tuple) -> Memo:
    """The lent model's answers, shared by every submission of the batch."""
    return Memo()


def _check_ids(given: torch.Tensor, inputs: list) -> None:
    """The lent model's one input: ids (B, T), each row one of the rows of the ids the
    test gave train_classifier (`given`); B at most MAX_BATCH, so the work is bounded."""
    ids = inputs[0] if len(inputs) == 1 else None
    if not isinstance(ids, torch.Tensor) or ids.dtype not in (torch.int64, torch.int32) \
            or ids.dim() != 2:
        raise TypeError("the model takes one argument: ids, an integer tensor (B, T)")
    if not 1 <= ids.shape[0] <= MAX_BATCH or ids.shape[1] != given.shape[1] \
            or not (ids[:, None, :] == given[None]).all(-1).any(-1).all():
        raise ValueError("the model lent for this test answers only the ids the test gave "
                         "train_classifier (rows of them)")


@format_test
def test_returns_one_loss_per_epoch(student):
    """returns a list with one float loss per epoch"""
    ids, labels = common.data(*SMALL_DATA)
    model = _reference_model(student, ids, labels, SMALL_SEED, SMALL)
    losses = student.train_classifier(model, ids, labels, epochs=3, lr=1e-3)
    if not isinstance(losses, list):
        fail(f"train_classifier(..., epochs=3) returned {type(losses).__name__}, not a list")
    if len(losses) != 3:
        fail(f"train_classifier(..., epochs=3) returned {len(losses)} losses, not 3")
    for i, v in enumerate(losses):
        if isinstance(v, bool) or not isinstance(v, numbers.Real):
            kind = f"a tensor of shape {tuple(v.shape)}" if isinstance(v, torch.Tensor) \
                else type(v).__name__
            fail(f"loss {i} is {kind}, not a float (loss.item() gives one)")


def test_documented_training_run(student):
    """the lesson's run (default epochs and lr) gives the documented losses"""
    ids, labels = common.documented_data()
    losses = student.train_classifier(_reference_model(student, ids, labels), ids, labels)
    common.expect_trace(losses, common.documented_trace(),
                        "train_classifier(model, ids, labels) with the default epochs and lr")


def test_epochs_and_learning_rate(student):
    """uses the epochs and lr it is given: one loss per epoch, other losses for another lr, no step at lr=0 or with no epoch"""
    # Judged on the student's own runs, not on the reference's trace: how the loop trains
    # (its optimizer, a schedule, where it reads the loss) is test_documented_training_run's
    # subject, so a loop that trains its own way but uses both arguments keeps these points.
    ids, labels = common.data(*SMALL_DATA)

    def what(epochs, lr):
        return f"train_classifier(model, ids, labels, epochs={epochs}, lr={lr:g})"

    def losses(model, epochs, lr):  # as floats, however many
        return _numbers(student.train_classifier(model, ids, labels, epochs=epochs, lr=lr),
                        what(epochs, lr))

    def counted(answer, epochs, lr):  # one loss per epoch
        if len(answer) != epochs:
            fail(f"{what(epochs, lr)} returned {len(answer)} losses, not {epochs}: run the "
                 "epochs it is given")
        return answer

    # Both runs are made before either is counted: a loop over a fixed number of epochs
    # answers them alike, which tells its diagnosis from a loop that miscounts.
    answers = [losses(_reference_model(student, ids, labels, SMALL_SEED, SMALL), epochs, lr)
               for epochs, lr in RUNS]
    traces = [counted(answer, *run) for answer, run in zip(answers, RUNS)]
    shared = min(len(t) for t in traces)
    if all(abs(a - b) <= common.TRACE_ATOL for a, b in zip(*(t[:shared] for t in traces))):
        fail(f"train_classifier gave the same first {shared} losses with lr={RUNS[0][1]:g} and "
             f"lr={RUNS[1][1]:g}: train with the lr it is given")
    for epochs, lr in ((0, 3e-3), (3, 0.0)):  # no step: no epoch, or a step of size 0
        model = _reference_model(student, ids, labels, SMALL_SEED, SMALL)
        before = expect_tensor(model(ids), "the model's logits")
        counted(losses(model, epochs, lr), epochs, lr)
        if changed(before, expect_tensor(model(ids), "the model's logits"), what(epochs, lr),
                   atol=1e-7):
            fail(f"{what(epochs, lr)} changed the model: " + (
                "with no epoch, take no step" if not epochs else "a step of lr 0 moves no weight"))


def test_trains_the_given_model(student):
    """trains the model it is given, in place: afterwards its logits have changed"""
    # Judged on the model itself, not on the reference's trained logits: how well it is
    # trained is the other tests' subject.
    ids, labels = common.data(*SMALL_DATA)
    epochs, lr = RUNS[0]
    model = _reference_model(student, ids, labels, SMALL_SEED, SMALL)
    what = "the model's logits"
    before = expect_tensor(model(ids), what)
    student.train_classifier(model, ids, labels, epochs=epochs, lr=lr)
    after = expect_tensor(model(ids), what)
    if not changed(before, after, what, atol=1e-7):
        fail(f"train_classifier(model, ids, labels, epochs={epochs}, lr={lr:g}) left the "
             "model it was given unchanged: train that model, not a copy")


def test_gradients_start_from_zero(student):
    """gradients already on the model do not join the first update: each epoch zeroes them before its backward"""
    # Compared with the student's own run on the same model without gradients, so a loop
    # that differs from the reference otherwise (the other tests' subjects) passes here.
    ids, labels = common.data(*SMALL_DATA)
    epochs, lr = STALE_RUN
    what = f"train_classifier(model, ids, labels, epochs={epochs}, lr={lr:g})"
    train = student.value("train_classifier")

    def run(seed):  # a fresh model, with seeded gradients on it (none for None)
        model = _reference_model(student, ids, labels, SMALL_SEED, SMALL)
        return _numbers(student.build(STALE_GRADIENTS, "run", train, model, ids, labels, seed,
                                      epochs=epochs, lr=lr), what)
    clean, stale = run(None), run(5)
    if len(set(clean)) < 2:  # a loop that does not train has nothing to compare
        fail(f"{what}: the loss did not change over the epochs, so whether gradients already "
             "on the model join the first update cannot be seen")
    if len(stale) != len(clean) or any(not abs(a - b) <= common.TRACE_ATOL
                                       for a, b in zip(clean, stale)):
        fail(f"{what} on a model that already holds gradients gave other losses than on the "
             "same model without them: zero the gradients before each backward (not after "
             "the step), so that only this epoch's gradients make its update")


def _numbers(losses, what: str) -> list:
    """The losses as floats (how many there are is the other tests' subject)."""
    if not isinstance(losses, (list, tuple)):
        fail(f"{what}: expected a list of losses, got "
             + (losses.type_name if isinstance(losses, RemoteObject) else type(losses).__name__))
    return [expect_number(v, f"{what}: loss of epoch {i}") for i, v in enumerate(losses)]
