"""The grading results of the corpus and the examples, as committed snapshots.

A refactor must not change a single graded byte: tests/assignments/test_snapshot.py grades
every assignment's corpus (tests/assignments/corpus/<id>) and examples (examples/<id>) and
compares, per submission, the score, the error, the notes and every test's
name, score, status and output (never timings) with tests/assignments/snapshots/<id>.json.
A student's value that a message prints (6 significant digits) may differ in its
last digit on another CPU (torch's kernels round differently): a message's decimal
numbers compare within SAME_DIGITS (`same`), its words and integers exactly.
When the hidden tests change on purpose, regenerate and review the diff:

    .venv/bin/python scripts/results_snapshot.py [ASSIGNMENT ...]
"""
from __future__ import annotations

import json
import math
import re
from pathlib import Path

from autograder import paths, registry
from tests.assignments import corpus_tools
from tests.conftest import grade

SNAPSHOTS = Path(__file__).parent / "snapshots"
ASSIGNMENTS = registry.ids()


def digest(results) -> dict:
    """{submission id: what was graded, without timings}, sorted by id."""
    return {r.submission: {"score": r.score, "error": r.error, "notes": r.notes,
                           "tests": [[t.question, t.name, t.score, t.status, t.output]
                                     for t in r.tests]}
            for r in sorted(results, key=lambda r: r.submission)}


def graded(assignment_id: str, workdir: Path, corpus_results=None) -> dict:
    """{"corpus": digest, "examples": digest} of one assignment; `corpus_results`
    ({path: result}, from corpus_tools.grade_corpus) is graded here when None."""
    if corpus_results is None and corpus_tools.variants(assignment_id):
        _, corpus_results, _ = corpus_tools.grade_corpus(assignment_id, workdir / "corpus")
    examples = grade(assignment_id, paths.EXAMPLES / assignment_id, workdir / "examples")
    return {"corpus": digest((corpus_results or {}).values()),
            "examples": digest(examples.values())}


def path(assignment_id: str) -> Path:
    return SNAPSHOTS / f"{assignment_id}.json"


def dumps(snapshot: dict) -> str:
    return json.dumps(snapshot, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


SAME_DIGITS = 1e-4
"""Relative difference allowed between two decimal numbers of a message."""
NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")


def same(now, expected) -> bool:
    """Whether two digests (or parts of them) are equal, decimal numbers inside
    strings within SAME_DIGITS of each other (integers and words exactly)."""
    if isinstance(now, dict) and isinstance(expected, dict):
        return now.keys() == expected.keys() and all(same(now[k], expected[k]) for k in now)
    if isinstance(now, list) and isinstance(expected, list):
        return len(now) == len(expected) and all(same(a, b) for a, b in zip(now, expected))
    if isinstance(now, str) and isinstance(expected, str):
        return _same_text(now, expected)
    return now == expected


def _same_text(now: str, expected: str) -> bool:
    if now == expected:
        return True
    words = lambda text: NUMBER.split(text)
    if words(now) != words(expected):
        return False
    for a, b in zip(NUMBER.findall(now), NUMBER.findall(expected)):
        decimal = any(c in a + b for c in ".eE")
        if a != b and (not decimal or not math.isclose(float(a), float(b), rel_tol=SAME_DIGITS)):
            return False
    return True
