"""Known mistakes of hw4_bert_finetuning, each explained for the student.

Both stubs take or build a model, a handle in the worker: nothing can be
replayed here (engine/driving/diagnose.py), so each mistake is a sign read from
the recorded answers (Diagnosis.replay False), true only of answers no correct
stub gives. Only train_classifier's list of losses shows such signs; the model's
mistakes are seen in its outputs, which are not the stub's answers. The corpus's
buggy variants (tests/assignments/corpus/hw4_bert_finetuning/buggy/) make them.
Sections are the master's headings.
"""
import numbers

import torch

from autograder.testing import Diagnosis

PART3 = "Part 3: the fine-tuning loop"


def _epochs(model, ids, labels, epochs=30, lr=1e-3):
    return epochs


def _runs(calls):
    """(epochs asked, the list answered) of the calls answered with a list or tuple."""
    for args, kwargs, answer in calls:
        if isinstance(answer, (list, tuple)):
            try:
                epochs = _epochs(*args, **kwargs)
            except TypeError:
                continue
            if isinstance(epochs, numbers.Integral) and not isinstance(epochs, bool):
                yield int(epochs), answer


def tc_one_epoch_short(calls):
    return any(epochs >= 1 and len(losses) == epochs - 1 for epochs, losses in _runs(calls))


def tc_zero_epochs_step(calls):
    return any(epochs == 0 and len(losses) == 1 for epochs, losses in _runs(calls))


def tc_loss_tensors(calls):
    return any(any(isinstance(x, torch.Tensor) for x in losses) for _, losses in _runs(calls))


DIAGNOSES = [
    Diagnosis("train_classifier", tc_one_epoch_short,
              "the loop runs one epoch too few; run `epochs` epochs and return their "
              "`epochs` losses", "Question 2", replay=False),
    Diagnosis("train_classifier", tc_zero_epochs_step,
              "epochs=0 still trains once (the count is checked after the step); with 0 "
              "epochs the model is left as it is and the list of losses is empty",
              "Question 2", replay=False),
    Diagnosis("train_classifier", tc_loss_tensors,
              "the losses are returned as tensors; record each epoch's loss as a Python "
              "float, loss.item()", PART3, replay=False),
]
