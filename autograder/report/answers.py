"""The students' own answers: what they wrote in the cells that define a stub.

Used by the similarity report. What must stay true: the text is what grading
kept of the notebook (SubmissionResult.cells, engine/intake/kept_cells.py: cleaned
and bounded once, where it was read); no submission is read or parsed again
here. An answer is capped, and every line the student notebook hands out
(signatures, docstrings, starter code, the master's comments) is removed, so
what remains is the student's.
"""
from __future__ import annotations

import functools
import json
import re

from autograder import registry
from autograder.engine.intake.kept_cells import cell_source
from autograder.engine.results import SubmissionResult

ANSWER_CHARS = 20_000
"""Characters kept of one answer (one question of one submission)."""


def of_result(result: SubmissionResult, assignment_id: str, stubs: list[str]) -> dict[str, str]:
    """{stub: the student's text for it} for one graded submission, from the
    cells grading kept ({} when its notebook could not be read)."""
    return of_cells([cell_source(c) for c in result.cells if c.get("cell_type") == "code"],
                    stubs, handed_out(assignment_id))


def starter_code(assignment_id: str) -> str:
    """The student notebook's code cells, in order."""
    return "\n".join(cell_source(c) for c in _student_cells(assignment_id)
                     if c.get("cell_type") == "code")


def of_cells(code_cells: list[str], stubs: list[str], given: frozenset[str]) -> dict[str, str]:
    """Each stub's answer: the code cells that define it at the top level
    (a cell counts for the first stub it defines), lines in `given` removed."""
    defines = {s: re.compile(rf"^(?:async\s+def|def|class)\s+{re.escape(s)}\b", re.M)
               for s in stubs}
    found: dict[str, list[str]] = {}
    for source in code_cells:
        stub = next((s for s in stubs if defines[s].search(source)), None)
        if stub is not None:
            found.setdefault(stub, []).append(source)
    answers = {}
    for stub, sources in found.items():
        text = "\n".join(sources)[:ANSWER_CHARS]  # each source is cleaned text already
        own = [line for line in text.split("\n") if line.strip() and line.strip() not in given]
        if own:
            answers[stub] = "\n".join(own)
    return answers


@functools.lru_cache(maxsize=16)
def handed_out(assignment_id: str) -> frozenset[str]:
    """Every line (stripped) of the student notebook's code and Markdown cells."""
    return frozenset(line.strip() for c in _student_cells(assignment_id)
                     for line in cell_source(c).split("\n") if line.strip())


def _student_cells(assignment_id: str) -> list[dict]:
    """The cells of the student notebook `build` wrote ([] without one)."""
    try:
        with open(registry.get(assignment_id).student_notebook, encoding="utf-8") as f:
            cells = json.load(f).get("cells", [])
    except (OSError, ValueError, AttributeError):
        return []
    return [c for c in cells if isinstance(c, dict)]
