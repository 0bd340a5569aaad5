"""The corpus of correct and buggy variants, graded (its headers are read by
autograder/corpus.py). Used by tests/assignments/test_corpus.py and by
scripts/corpus_failures.py (which prints what the tests fail now, so the lists
are easy to review and regenerate).
"""
from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from autograder import protocol
from autograder.build.stand_ins import stand_ins
from autograder.corpus import MEASURE, TUNE, Declared, cells, declared, submission_id, variants  # noqa: F401
from autograder.engine import assignment as assignment_mod
from tests.conftest import grade, write_notebook
from tests.engine.rng_watch import unlocked_draws

CORPUS = Path(__file__).parent / "corpus"
RAISES = "raises__everywhere"
STAND_IN = "stand_in__"


def grade_corpus(assignment_id: str, workdir: Path, extra: dict[str, list[str]] | None = None):
    """Grade every variant of one assignment in one batch, each as the reference
    solution plus the variant as a second cell, beside the `extra` notebooks
    ({id: cells}); (assignment, {path: result}, {extra id: result})."""
    subs = workdir / "subs"
    subs.mkdir(parents=True)
    a = assignment_mod.load(assignment_id)
    reference = inspect.getsource(a.reference)
    paths = variants(assignment_id)
    for p in paths:
        write_notebook(subs / f"{submission_id(p)}.ipynb", cells(p, reference))
    for name, own in (extra or {}).items():
        write_notebook(subs / f"{name}.ipynb", own)
    results = grade(assignment_id, subs, workdir / "out")
    return a, {p: results[submission_id(p)] for p in paths}, {n: results[n] for n in extra or {}}


def failed_tests(result) -> list[tuple[str, str]]:
    """(question, test name) of each failed test, in grading order."""
    return [(t.question, t.name) for t in result.tests if t.status == "failed"]


class Graded:
    """Each assignment's whole corpus graded once (with the raise-everywhere
    notebook), every string the grader sent its workers meanwhile (but the
    notebooks' own cells), and how often it drew from a global RNG unlocked. Shared
    by the corpus and snapshot tests (the session fixture `graded` of
    tests/conftest.py)."""

    def __init__(self, tmp_path_factory):
        self.tmp = tmp_path_factory
        self.cache: dict = {}
        self.texts: dict[str, list[str]] = {}
        self.draws: dict[str, int] = {}

    def __call__(self, assignment_id: str, path: Path):
        a, results, _ = self._graded(assignment_id)
        return a, results[path]

    def results(self, assignment_id: str) -> dict:
        """{path: result} of every variant."""
        return self._graded(assignment_id)[1]

    def raising(self, assignment_id: str):
        return self._graded(assignment_id)[2][RAISES]

    def stand_ins(self, assignment_id: str) -> dict:
        """{kind: result} of the notebooks whose every stub is a stand-in of that kind
        (autograder.build.stand_ins, as build grades them), the raise-everywhere one's
        as RAISES."""
        extra = self._graded(assignment_id)[2]
        return {name.removeprefix(STAND_IN): result for name, result in extra.items()
                if name.startswith(STAND_IN) or name == RAISES}

    def sent(self, assignment_id: str) -> list[str]:
        self._graded(assignment_id)
        return self.texts[assignment_id]

    def _graded(self, assignment_id: str):
        if assignment_id not in self.cache:
            a = assignment_mod.load(assignment_id)
            reference = inspect.getsource(a.reference)
            texts = self.texts.setdefault(assignment_id, [])
            extra = {RAISES: [raise_everywhere(reference)]}
            extra.update({STAND_IN + kind: [reference, cell]
                          for kind, cell in stand_ins(reference, a.questions).items()})
            with pytest.MonkeyPatch.context() as patch, unlocked_draws() as draws:
                patch.setattr(protocol, "send_frame", _recording(protocol.send_frame, texts))
                self.cache[assignment_id] = grade_corpus(
                    assignment_id, self.tmp.mktemp(assignment_id), extra)
            self.draws[assignment_id] = draws.count
        return self.cache[assignment_id]

    def unlocked_draws(self, assignment_id: str) -> int:
        """How often the grading of the corpus was seen drawing from a global RNG
        without its lock (tests/engine/rng_watch.py)."""
        self._graded(assignment_id)
        return self.draws[assignment_id]


def _recording(send_frame, texts: list[str]):
    """send_frame, keeping every string of every request but the notebook's cells."""
    def send(sock, header, buffers=()):
        if header.get("op") != "run_cell":
            texts.extend(_strings(header))
        return send_frame(sock, header, buffers)
    return send


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def raise_everywhere(reference: str) -> str:
    """A notebook cell defining every function and class of the reference so
    that calling it raises ValueError."""
    raises = "raise ValueError('no answer')"
    cells = []
    for node in ast.parse(reference).body:
        if isinstance(node, ast.FunctionDef):
            cells.append(f"def {node.name}(*args, **kwargs):\n    {raises}\n")
        elif isinstance(node, ast.ClassDef):
            cells.append(f"class {node.name}:\n    def __init__(self, *args, **kwargs):\n"
                         f"        {raises}\n")
    return "\n\n".join(cells)
