"""Evidence before words: a matched mistake is named only when nothing simpler
explains the student's answers.

What must stay true: no diagnosis for an answer a stub gives when nobody wrote it.
A stand-in is such a stub, made from the reference's own signature:

    untouched   the body left as the notebook gives it: None (a class: a module
                with no layers, whose forward answers None)
    raises      an exception on every call (NotImplementedError, or the type the
                student's code raised, with a message of its own)
    echo        its first argument handed back (a module with no layers whose
                forward hands back its input)
    zeros, ones the reference's answer with every number made 0, or 1 (a module
                with the reference's layers whose forward does that)

A diagnosis is withheld when a stand-in gives every one of the student's answers
on the test's inputs, or when the mistake's own answers there are a stand-in's (the
test's inputs cannot tell the mistake from an empty answer: a free-text exception
of the mistake's own, say, which any stub raising that type matches). A sign (a
diagnosis read from answers, Diagnosis.replay False) is judged on the first rule
only: its answers' property is the evidence, and an empty answer has many.

Nothing here runs for a passing test, nor for a failing one that no mistake
matched: the stand-ins' answers are made from what the match already computed
(the reference's answers), or driven once per batch for a class stub (DRIVEN).
"""
from __future__ import annotations

import logging
import threading
from typing import Callable

import numpy as np

from autograder.engine.diagnoses import compare, drive, match, replay
from autograder.engine.diagnoses.declared import Diagnosis
from autograder.engine.diagnoses.raised import Raised
from autograder.engine.diagnoses.record import Calls
from autograder.engine.numerics import torch  # None without torch

log = logging.getLogger(__name__)

KINDS = ("untouched", "raises", "echo", "zeros", "ones")


def diagnose(candidates: tuple[Diagnosis, ...], record: Calls, reference: Callable) -> str:
    """The one matching diagnosis's text, "" when none or several match (or the
    record cannot be replayed; _simplest says when several are still one, _agree when
    a replay and signs are, _signs when several signs are each named). A mistake
    matches when it gives every recorded answer and, on one call at least, not the
    reference's answer (the `reference` stub): a mistake that the test's inputs do not
    reveal explains nothing. Never raises: a mistake that breaks is no match."""
    record.expand()
    if record.spoiled or not record.calls:
        return ""
    reference_run: list = []  # replayed once, and only for a mistake that gives every answer
    mistaken: dict[int, object] = {}  # id(diagnosis) -> its answers on the record's calls
    try:
        matching = [d for d in candidates
                    if match.matches(d, record, reference, reference_run, mistaken)]
        replays = [d for d in matching if d.replay]
        named = _simplest(replays or matching)
        if named is None:
            return "" if replays else _signs(matching, record, reference, reference_run)
        if not _agree(matching, named):
            return ""
        if explained(named, record, reference, reference_run, mistaken.get(id(named))):
            return ""  # a stand-in gives those answers too: no evidence of the mistake
    except replay.Unreplayable:
        return ""
    return named.text()


def _signs(matching: list[Diagnosis], record: Calls, reference: Callable,
           reference_run: list) -> str:
    """Several matches, each a sign: each is its own evidence (a property of the answers
    that no correct answer has), so each is named, on a line of its own (a loop that
    ignores both its epochs and its rate). "" when a stand-in gives the answers. (Two
    replays that both give the answers are two explanations of one answer, not two
    mistakes: diagnose names none.)"""
    if len(matching) < 2:
        return ""
    tolerances = {(d.rtol, d.atol): d for d in matching}  # a sign's stand-ins differ by these only
    if any(explained(d, record, reference, reference_run, None) for d in tolerances.values()):
        return ""
    return "\n".join(d.text() for d in matching)


def _agree(matching: list[Diagnosis], named: Diagnosis) -> bool:
    """Whether every sign among the matches names one of `named`'s mistakes (the same
    text): a replay that gives the answers explains the sign too (a model with a
    dropout left active, post-norm as well, whose logits vary from call to call), and
    says more than it. A sign naming another mistake is another explanation: none."""
    texts = {p.text() for p in named.parts or (named,)}
    return all(d.text() in texts for d in matching if not d.replay)


def _simplest(matching: list[Diagnosis]) -> Diagnosis | None:
    """The one match, or the match whose mistakes every other match makes too (the
    test's inputs show those, not whether the others are made as well: a model whose
    head is built first, with or without ReLU); None when none, or none such."""
    parts = {id(d): {id(p) for p in d.parts or (d,)} for d in matching}
    least = min(matching, key=lambda d: len(parts[id(d)]), default=None)
    if least is None or any(not parts[id(least)] <= parts[id(d)] for d in matching):
        return None
    return least


def explained(d: Diagnosis, record: Calls, reference: Callable, reference_run: list,
              mistaken) -> str:
    """The kind of the first stand-in that explains the student's answers as well as
    d's mistake does ("" when none does). `reference_run` and `mistaken` are what the
    match computed: the reference's answers (and twins' states), the mistake's."""
    try:
        if record.driven:
            return _driven(d, record, reference, mistaken)
        return _called(d, record, reference_run, mistaken)
    except Exception:  # a stand-in that cannot be made or compared: nothing is named
        log.warning("diagnosis of %s: stand-ins broke", record.name, exc_info=True)
        return "broken"


def _called(d, record, reference_run: list, mistaken) -> str:
    """A function stub's record: the stand-ins' answers made from each call's
    arguments, the reference's answers (a sign's: the student's own answers)."""
    same = lambda a, b: compare.same(a, b, d.rtol, d.atol)
    calls = record.own() if not d.replay else record.calls
    student = [c[2] for c in calls]
    templates = reference_run[0][0] if d.replay else student
    raised = next((a for a in student if isinstance(a, Raised)), None)
    fresh = _FreshStates(record)
    for kind in _kinds(record):
        answers = [_answer(kind, args, t, raised, d.replay)
                   for (args, _, _), t in zip(calls, templates)]
        states = reference_run[0][1] if kind in ("zeros", "ones") and d.replay else None
        if all(same(a, s) for a, s in zip(student, answers)) and \
                _same_states(record, states, fresh, same, [t.seen for t in replay.stateful(record)]):
            return kind
        if d.replay and all(same(m, s) for m, s in zip(mistaken[0], answers)) and \
                _same_states(record, states, fresh, same, mistaken[1]):
            return kind
    return ""


def _kinds(record) -> tuple[str, ...]:
    """The stand-ins the stub may be: not one raising everywhere once it answered a
    call in an earlier test of the submission (Calls.answered_before)."""
    return tuple(k for k in KINDS if k != "raises" or not record.answered_before)


def _answer(kind: str, args, template, raised, replay: bool):
    """The stand-in's answer to a call whose template (the reference's answer; a sign's:
    the student's) is `template`. Where the template raised, zeros and ones raise too:
    the reference's own exception; where it is the student's, one of its type with a
    message of the stand-in's own (a stand-in is made from the reference, which never
    raises a library's refusal of the student's code, torch's "not implemented for
    'Char'")."""
    if kind == "untouched":
        return None
    if kind == "raises":
        names = raised.type_names if raised is not None else ["NotImplementedError"]
        return Raised(names, "")  # a message of its own: no library's, no mistake's
    if kind == "echo":
        return args[0] if args else None
    if isinstance(template, Raised):
        return template if replay else Raised(template.type_names, "")
    return answer_as(template, 0 if kind == "zeros" else 1)


class _FreshStates:
    """The states of the twins the test read, as a stand-in that never touches them
    leaves them (made once, when first asked)."""

    def __init__(self, record):
        self.record, self.states = record, None

    def get(self) -> list:
        if self.states is None:
            stateful = replay.stateful(self.record)
            self.states = [t.read(t.make()) for t in stateful]
        return self.states


def _same_states(record, states, fresh: _FreshStates, same, seen) -> bool:
    if not replay.stateful(record):
        return True
    states = fresh.get() if states is None else states
    return all(same(s, x) for s, x in zip(seen, states))


def answer_as(value, fill):
    """`value` with every number made `fill`, its types, dtypes and shapes kept
    (a handle, a string, None as they are)."""
    if torch is not None and isinstance(value, torch.Tensor):
        return torch.full_like(value.detach(), fill)
    if isinstance(value, np.ndarray):
        return np.full_like(value, fill) if value.dtype.kind in "biufc" else value
    if isinstance(value, (tuple, list)):
        return type(value)(answer_as(v, fill) for v in value)
    if isinstance(value, dict):
        return {k: answer_as(v, fill) for k, v in value.items()}
    if isinstance(value, (bool, np.bool_)):
        return bool(fill)
    if isinstance(value, (int, float, np.number)):
        return type(value)(fill)
    return value


def _driven(d, record, reference, mistaken) -> str:
    """A class stub's record: each stand-in class driven as the test drove the
    student's object (kept for the batch, as the mistakes' drives are)."""
    same = lambda a, b: compare.same(a, b, d.rtol, d.atol)
    student = [entry[2] for entry in record.calls]
    for kind, stand_in in _drivable(reference).items():
        if kind not in _kinds(record):
            continue
        answers = drive.DRIVEN.answers(stand_in, drive.key(record), record, lambda i, a: True)
        if all(same(a, s) for a, s in zip(student, answers)) or \
                d.replay and all(same(m, s) for m, s in zip(mistaken, answers)):
            return kind
    return ""


_MADE: dict[int, tuple] = {}  # id(reference stub) -> (it, its stand-ins)
_MADE_LOCK = threading.Lock()


def _drivable(reference) -> dict[str, Callable]:
    """The stand-ins of a stub whose answers hold handles (a class; a function answering
    a generator), made once per reference (DRIVEN keys its drives by the stand-in's
    id: the same ones for every submission)."""
    with _MADE_LOCK:
        kept = _MADE.get(id(reference))
        if kept is None or kept[0] is not reference:
            made = (_made_classes(reference) if isinstance(reference, type)
                    else _made_functions(reference))
            kept = _MADE[id(reference)] = (reference, made)
        return kept[1]


def _made_functions(reference) -> dict[str, Callable]:
    def untouched(*args, **kwargs):
        return None

    def raises(*args, **kwargs):
        raise NotImplementedError

    def echo(*args, **kwargs):
        return args[0] if args else None

    made = {"untouched": untouched, "raises": raises, "echo": echo}
    for f in made.values():  # named as the stub, as its messages would name it
        f.__name__ = reference.__name__
    return made


def _made_classes(reference: type) -> dict[str, type]:
    module = torch is not None and issubclass(reference, torch.nn.Module)
    base = torch.nn.Module if module else object
    name = reference.__name__

    def empty(forward):
        def __init__(self, *args, **kwargs):
            base.__init__(self)
        body = {"__init__": __init__, "forward": forward}
        if not module:  # a plain class is called as a module is
            body["__call__"] = forward
        return type(name, (base,), body)

    def raising(self, *args, **kwargs):
        raise NotImplementedError

    def filled(fill):
        def forward(self, *args, **kwargs):
            return answer_as(reference.forward(self, *args, **kwargs), fill)
        return type(name, (reference,), {"forward": forward})

    made = {"untouched": empty(lambda self, *a, **k: None),
            "raises": type(name, (base,), {"__init__": raising}),
            "echo": empty(lambda self, *a, **k: a[0] if a else None)}
    if module:
        made.update(zeros=filled(0), ones=filled(1))
    return made
