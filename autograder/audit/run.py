"""`python -m autograder audit ID`: how good are an assignment's hidden tests?

Every one-change mutant of the reference's graded stubs (audit/mutate.py: the
functions and classes the hidden tests call on the student) and every variant
of the corpus (autograder/corpus.py, with its prelude if it has one) is graded
through the real engine, in one parallel batch, beside the unchanged reference.
A mutant is

    killed      it loses points on its own question, and only there;
    survived    it loses no point: a blind spot of the tests;
    cascaded    it costs points on another question;
    equivalent  it survives and the author declared why no test can tell it
                from the reference (autograder/<id>/mutants.toml, [equivalent]);

a cascade the author accepts is declared there too ([cascade]). Every stub's
assumption variants (audit/assumptions.py: the reference restricted to the
lesson's rank, crashing on one edge, answering in another shape) are graded
too; one that loses points beyond its assumption's own test is a cascade of
the same kind (declared, if accepted, under [cascade] by its id). A correct
variant must keep every point the reference gets, and a buggy one must fail
exactly the tests it declares. Points are counted against the reference's own
(a test the reference fails is no test of a mutant). What must stay true:
the same sources give the same table (mutants in source order, grading seeded);
the exit status is non-zero when a survivor, a cascade or a corpus variant is
not as declared, or a test raised on the grader's side.
"""
from __future__ import annotations

import logging
import re
import shutil
import tempfile
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

from autograder import corpus, registry
from autograder.audit import assumptions
from autograder.audit.mutate import Mutant, mutants
from autograder.engine import assignment as assignment_mod
from autograder.engine import batch
from autograder.engine.results import SubmissionResult

LIMITS = {"notebook_seconds": 20, "call_seconds": 5, "restarts": 1}
"""A mutant may loop or hang: it costs seconds, not the config's minutes."""
REFERENCE_ID = "reference"
DECLARATIONS = "mutants.toml"


@dataclass
class MutantOutcome:
    mutant: Mutant
    kind: str
    """killed, survived, cascaded or equivalent; "broken" when it could not be graded."""
    failed: list[str]
    """Tests (question.name) it lost points on that the reference passes."""
    lost: dict[str, float]
    """Points lost per question."""
    reason: str = ""
    """The author's declaration, for equivalent and declared cascades."""


@dataclass
class VariantOutcome:
    path: Path
    kind: str
    """"correct" or "buggy"."""
    question: str | None
    failed: list[str]
    declared: tuple[str, ...] | None
    share: float
    """Of its question's points, the share it costs."""

    @property
    def as_declared(self) -> bool:
        if self.kind == "correct":
            return not self.failed
        own = sorted(t.split(".", 1)[1] for t in self.failed if t.startswith(f"{self.question}."))
        return own == sorted(self.declared or ()) and len(own) == len(self.failed)


@dataclass
class AssumptionOutcome:
    assumption: assumptions.Assumption
    shortfall: dict[str, float]
    """Points it lost per test (question.test) that the reference passes."""
    beyond: dict[str, float]
    """Of which, the tests beyond its assumption's own (assumptions.beyond)."""
    reason: str = ""
    """The author's declaration, for an accepted cascade."""
    error: str = ""
    """Why it could not be graded, if it could not."""


@dataclass
class Audit:
    assignment: assignment_mod.LoadedAssignment
    mutants: list[MutantOutcome]
    variants: list[VariantOutcome]
    seconds: float
    assumptions: list[AssumptionOutcome] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)
    """Declarations that match no mutant, or an equivalent that was killed."""
    raised: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    """Hidden tests that raised on the grader's side (a test's own fragility: its
    points are withheld, the submission needs a regrade): test id -> [(submission, error)]."""
    skipped: tuple[str, ...] = ()
    """The parts not graded this run ("mutants", "corpus"): the reports say so instead
    of showing them as empty."""

    def count(self, question: str | None = None) -> dict[str, int]:
        kinds = {"killed": 0, "survived": 0, "cascaded": 0, "equivalent": 0, "broken": 0}
        for m in self.mutants:
            if question is None or m.mutant.question == question:
                kinds[m.kind] += 1
        return kinds

    @property
    def problems(self) -> list[str]:
        """What makes the exit status non-zero."""
        found = [f"survived: {m.mutant.id}" for m in self.mutants if m.kind == "survived"]
        found += [f"cascaded: {m.mutant.id}" for m in self.mutants
                  if m.kind == "cascaded" and not m.reason]
        found += [f"corpus: {v.path.name} is not as declared" for v in self.variants
                  if not v.as_declared]
        found += [f"assumption cascaded: {a.assumption.id} (beyond its own test: "
                  f"{', '.join(a.beyond)})" for a in self.assumptions if a.beyond and not a.reason]
        found += [f"assumption could not be graded: {a.assumption.id}" for a in self.assumptions
                  if a.error]
        found += [f"raised on the grader's side: {test}" for test in sorted(self.raised)]
        return found


def audit(assignment_id: str, jobs: int | None = None, with_corpus: bool = True,
          progress: bool = True, with_mutants: bool = True) -> Audit:
    """Grade every mutant, assumption variant and corpus variant of `assignment_id`;
    see the module docstring."""
    record = registry.get(assignment_id)
    loaded = assignment_mod.load(assignment_id, LIMITS)
    source = record.reference.read_text()
    stubs = graded_stubs(record, loaded.questions)
    declarations = _declarations(record.hidden_tests / DECLARATIONS)
    found = mutants(source, stubs) if with_mutants else []
    assumed = assumptions.variants(source, stubs, declarations["lesson"])
    variants = corpus.variants(assignment_id) if with_corpus else []
    start = time.monotonic()
    work = Path(tempfile.mkdtemp(prefix="autograder-audit-"))
    try:
        subs = work / "submissions"
        subs.mkdir()
        _write(subs / f"{REFERENCE_ID}.ipynb", [source, *corpus.prelude(assignment_id, REFERENCE_ID)])
        for m in found:
            _write(subs / f"{_safe(m.id)}.ipynb", [m.source, *corpus.prelude(assignment_id, _safe(m.id))])
        for a in assumed:
            _write(subs / f"{_safe(a.id)}.ipynb",
                   [source, *corpus.prelude(assignment_id, _safe(a.id)), a.cell])
        for path in variants:
            _write(subs / f"{corpus.submission_id(path)}.ipynb", corpus.cells(path, source))
        with _TestsThatRaise() as raised:
            graded = batch.grade_folder(assignment_id, subs, work / "out", jobs=jobs,
                                        progress=progress, limits=LIMITS, diagnose=False)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    results = {r.submission: r for r in graded.results}
    reference = results[REFERENCE_ID]
    outcomes = [_classify(m, results[_safe(m.id)], reference, declarations) for m in found]
    refusing = assumptions.refusing_tests(
        {q: (record.hidden_tests / f"test_{q}.py").read_text() for q in stubs
         if (record.hidden_tests / f"test_{q}.py").is_file()})
    assumed_outcomes = [_assumed(a, results[_safe(a.id)], reference, refusing, declarations)
                        for a in assumed]
    declared = set(declarations["equivalent"]) | set(declarations["cascade"])
    ids = {m.id for m in found} | {a.id for a in assumed}
    stale = ([f"{i} is declared but no mutant has that id" for i in sorted(declared - ids)]
             if with_mutants else [])
    stale += [f"[lesson] names {s}, which is no graded stub"
              for s in sorted(set(declarations["lesson"]) - set(stubs))]
    stale += [f"{o.mutant.id} is declared equivalent but was killed" for o in outcomes
              if o.mutant.id in declarations.get("equivalent", {}) and o.kind != "equivalent"]
    return Audit(loaded, outcomes,
                 [_variant(p, results[corpus.submission_id(p)], reference, loaded)
                  for p in variants],
                 time.monotonic() - start, assumed_outcomes, stale, raised.found,
                 tuple(part for part, graded in (("mutants", with_mutants),
                                                 ("corpus", with_corpus)) if not graded))


def graded_stubs(record: registry.Assignment, questions: list[str]) -> list[str]:
    """The questions whose hidden tests call a stub of that name on the student
    (`student.NAME`). A function of the reference named like a question that no
    test calls there (an exam's expected answer to a short-answer question,
    computed from the student's numbers) is the grader's own: a mutant of it
    would only be compared with itself."""
    called = set()
    for path in registry.shipped_files(record.hidden_tests):
        if path.suffix == ".py" and path != record.reference:
            called |= set(re.findall(r"\bstudent\.(\w+)", path.read_text()))
    return [q for q in questions if q in called]


class _TestsThatRaise(logging.Handler):
    """Collects, instead of printing, the hidden tests that raised on the
    grader's side (engine/driving/runner.py logs them): test id -> [(submission, error)]."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.found: dict[str, list[tuple[str, str]]] = {}
        self.logger = logging.getLogger("autograder.engine.driving.runner")

    def emit(self, record: logging.LogRecord) -> None:
        if isinstance(record.args, tuple) and len(record.args) == 3:
            submission, case_id, exc = record.args
            self.found.setdefault(str(case_id), []).append(
                (str(submission), f"{type(exc).__name__}: {str(exc)[:200]}"))

    def __enter__(self):
        self.logger.addHandler(self)
        self.propagate, self.logger.propagate = self.logger.propagate, False
        return self

    def __exit__(self, *exc):
        self.logger.removeHandler(self)
        self.logger.propagate = self.propagate


def _classify(m: Mutant, result: SubmissionResult, reference: SubmissionResult,
              declarations: dict[str, dict[str, str]]) -> MutantOutcome:
    failed, lost = _lost(result, reference)
    if result.error:
        return MutantOutcome(m, "broken", failed, lost, result.error)
    others = {q: p for q, p in lost.items() if q != m.question and p > 0}
    if others:
        return MutantOutcome(m, "cascaded", failed, lost, declarations["cascade"].get(m.id, ""))
    if lost.get(m.question, 0) > 0:
        return MutantOutcome(m, "killed", failed, lost)
    reason = declarations["equivalent"].get(m.id, "")
    return MutantOutcome(m, "equivalent" if reason else "survived", failed, lost, reason)


def _assumed(a: assumptions.Assumption, result: SubmissionResult,
             reference: SubmissionResult, refusing: set[str],
             declarations: dict) -> AssumptionOutcome:
    shortfall = {f"{q}.{name}": short for (q, name), short in _shortfall(result, reference).items()}
    return AssumptionOutcome(a, shortfall, assumptions.beyond(a, shortfall, refusing),
                             declarations["cascade"].get(a.id, ""), result.error or "")


def _shortfall(result: SubmissionResult, reference: SubmissionResult) -> dict[tuple, float]:
    """(question, test) -> the points it lost on a test the reference passes."""
    passed = {(t.question, t.name): t.score for t in reference.tests}
    return {(t.question, t.name): short for t in result.tests
            if (short := passed.get((t.question, t.name), 0) - t.score) > 1e-9}


def _lost(result: SubmissionResult, reference: SubmissionResult):
    """(tests it fails that the reference passes, points lost per question)."""
    failed, lost = [], {}
    for (question, name), short in _shortfall(result, reference).items():
        failed.append(f"{question}.{name}")
        lost[question] = lost.get(question, 0) + short
    return failed, lost


def _variant(path: Path, result: SubmissionResult, reference: SubmissionResult,
             loaded) -> VariantOutcome:
    head = corpus.declared(path)
    failed, lost = _lost(result, reference)
    points = loaded.config.max_points(head.question) if head.question in loaded.questions else 0
    share = lost.get(head.question, 0) / points if points else 0.0
    return VariantOutcome(path, path.parent.name, head.question, failed, head.fails, share)


def _declarations(path: Path) -> dict[str, dict]:
    """[equivalent] and [cascade] of an assignment's mutants.toml (id -> reason), and
    [lesson] (stub -> the ranks the lesson gives its positional arguments, an
    integer each or "any")."""
    found = {"equivalent": {}, "cascade": {}, "lesson": {}}
    if path.is_file():
        with open(path, "rb") as f:
            raw = tomllib.load(f)
        for kind in ("equivalent", "cascade"):
            found[kind] = {str(k): str(v) for k, v in raw.get(kind, {}).items()}
        found["lesson"] = {str(k): [r if type(r) is int else None for r in v]
                           for k, v in raw.get("lesson", {}).items()}
    return found


def _write(path: Path, cells: list[str]) -> None:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(c) for c in cells]
    path.write_text(nbformat.writes(nb))


def _safe(mutant_id: str) -> str:
    """A mutant's id as a submission id (no spaces or colons in file names)."""
    return "m-" + mutant_id.replace(":", "-").replace(" ", "_")
