"""The corpus of correct and buggy variants: reading its headers, grading it.

A buggy variant opens with its declaration, reviewed by a person:

    # question: mask_tokens
    # fails: test_labels_and_corruption_rules, test_random_ids_uniform

`question` is the stub the mistake is in; `fails` is exactly the hidden tests
of that question it must fail (the properties it breaks), nothing more.
Used by tests/test_corpus.py and by scripts/corpus_failures.py (which prints
what the tests fail now, so the lists are easy to review and regenerate).
"""
from __future__ import annotations

import inspect
import re
from dataclasses import dataclass
from pathlib import Path

from autograder.engine import assignment as assignment_mod
from tests.conftest import grade, write_notebook

CORPUS = Path(__file__).parent / "corpus"
QUESTION = re.compile(r"#\s*question:\s*(\w+)\s*$")
FAILS = re.compile(r"#\s*fails:\s*(.*?)\s*$")


@dataclass(frozen=True)
class Declared:
    question: str | None
    fails: tuple[str, ...] | None
    """None when the header has no `# fails:` line."""


def declared(path: Path) -> Declared:
    """The header of a corpus file (its first two lines)."""
    lines = path.read_text().splitlines()[:2] + ["", ""]
    q, f = QUESTION.match(lines[0]), FAILS.match(lines[1])
    fails = tuple(n.strip() for n in f.group(1).split(",") if n.strip()) if f else None
    return Declared(q.group(1) if q else None, fails)


def variants(assignment_id: str | None = None) -> list[Path]:
    """Every corpus file, sorted (correct/ and buggy/ of each assignment)."""
    pattern = f"{assignment_id or '*'}/*/*.py"
    return [p for p in sorted(CORPUS.glob(pattern)) if p.parent.name in ("correct", "buggy")]


def submission_id(path: Path) -> str:
    return f"{path.parent.name}__{path.stem}"


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
        write_notebook(subs / f"{submission_id(p)}.ipynb", [reference, p.read_text()])
    for name, cells in (extra or {}).items():
        write_notebook(subs / f"{name}.ipynb", cells)
    results = grade(assignment_id, subs, workdir / "out")
    return a, {p: results[submission_id(p)] for p in paths}, {n: results[n] for n in extra or {}}


def failed_tests(result) -> list[tuple[str, str]]:
    """(question, test name) of each failed test, in grading order."""
    return [(t.question, t.name) for t in result.tests if t.status == "failed"]
