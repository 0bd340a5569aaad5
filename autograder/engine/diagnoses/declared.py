"""What an assignment declares: its known mistakes (Diagnosis, combined) in
autograder/<id>/diagnoses.py, and how they are loaded.

A Diagnosis is a typical mistake of one stub, as a function with the stub's
signature that makes it (author's code, run only here in the trusted process,
never sent to the worker), a one-line explanation for the student, and the
notebook section to reread; or, with replay False, a sign read from the answers.
"""
from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class Diagnosis:
    """A known mistake in `question` (a stub's name) and what to tell the student."""

    question: str
    mistake: Callable
    """The stub written with the mistake: same signature, deterministic (a class
    stub's is a class, whose random weights draw as the student's would)."""
    explanation: str
    """One line for the student: what the mistake is and why it is wrong, never
    an expected value."""
    section: str
    """The notebook section to reread, as its heading reads ("1.2 Scaled ...")."""
    rtol: float = 1e-4
    atol: float = 1e-5
    """How close the student's answers must be to the mistake's (float values)."""
    replay: bool = True
    """False for a stub whose arguments hold a handle without a twin (a generator):
    `mistake` is then a sign, shows(calls) -> bool over the test's recorded calls
    of the stub ((args, kwargs, answer or Raised) tuples, handles included, never
    to be modified; no Steps), true when the answers show the mistake and no
    correct stub's could (an invariant it breaks, or a share no correct sampler
    comes near). Nothing is replayed: the reference's answers are not needed."""
    steps: bool = False
    """For a sign of a class stub: it reads the Steps on the stub's objects too (what
    their methods and forward answered), not only the stub's own calls."""
    witnesses: tuple[Callable, ...] = ()
    """Other ways of writing the same mistake, each replayed as `mistake` is (a dropout
    after the activation, or at the feed-forward's end): the diagnosis matches when one
    of them gives the answers."""
    max_elements: int | None = None
    """Array entries a test's recorded answers may hold in all for its question to be
    diagnosed, when lower than the default (MAX_ELEMENTS, or MAX_SIGN_ELEMENTS for
    signs): for a stub whose answers cost more per entry to replay (a table of sines)."""

    parts: tuple["Diagnosis", ...] = ()
    """A combined diagnosis's declared mistakes (combined()), each named on a line of its own."""

    def text(self) -> str:
        """What feedback shows: one line per mistake ("This looks like: ...")."""
        if self.parts:
            return "\n".join(p.text() for p in self.parts)
        return f"This looks like: {self.explanation} (see {self.section})"


def combined(mistake: Callable, *parts: Diagnosis) -> Diagnosis:
    """The diagnosis of an answer that makes several declared mistakes of one question at
    once (a student's layer that is post-norm and uses ReLU): `mistake` makes them all,
    the feedback names each. Matched as any replay is; a single part's replay does not
    give such an answer, so without it nothing would be said."""
    if len(parts) < 2 or len({p.question for p in parts}) != 1 or \
            any(p.parts or not p.replay for p in parts):
        raise TypeError("combined() takes two or more replayed diagnoses of one question")
    return Diagnosis(parts[0].question, mistake, "; ".join(p.explanation for p in parts),
                     parts[0].section, rtol=min(p.rtol for p in parts),
                     atol=min(p.atol for p in parts), parts=parts)


def load(package: str, reference) -> dict[str, tuple[Diagnosis, ...]]:
    """{question: its diagnoses} of the assignment package (empty without diagnoses.py);
    each question must be a stub of the `reference` module (its answers are compared)."""
    if importlib.util.find_spec(f"{package}.diagnoses") is None:
        return {}
    module = importlib.import_module(f"{package}.diagnoses")
    found: dict[str, list[Diagnosis]] = {}
    for d in getattr(module, "DIAGNOSES", ()):
        if not isinstance(d, Diagnosis):
            raise TypeError(f"{package}.diagnoses: DIAGNOSES holds a {type(d).__name__}")
        if not callable(getattr(reference, d.question, None)):
            raise TypeError(f"{package}.diagnoses: {d.question} is not a stub of the reference")
        found.setdefault(d.question, []).append(d)
    return {q: tuple(ds) for q, ds in found.items()}
