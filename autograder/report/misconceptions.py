"""The class's misconceptions: how many students' feedback named each diagnosis.

A diagnosis (engine/driving/diagnose.py) is the text a failing test's feedback
shows when the student's answers are those of one known mistake. Ranked here per
question, most named first, with the notebook section to reteach; a student is
counted once per diagnosis however many of their tests named it. Only the text
reaches a result, so the section is the declared Diagnosis's (a text no longer
declared keeps its count, without a section).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Named:
    question: str
    explanation: str
    section: str
    students: int
    graded: int
    """Submissions graded (the share's denominator)."""


def ranked(results, diagnoses: dict, questions: list[str]) -> list[Named]:
    """Per question in `questions`' order (others after, by name), the diagnoses
    named in `results`' tests, most students first (ties by explanation).
    `diagnoses`: {question: its Diagnosis entries} of the assignment."""
    declared = {(q, d.text()): d for q, ds in diagnoses.items() for d in ds}
    students: dict[tuple[str, str], set[str]] = {}
    graded = 0
    for r in results:
        graded += not r.error
        for t in r.tests:
            if t.diagnosis:
                students.setdefault((t.question, t.diagnosis), set()).add(r.submission)
    order = {q: i for i, q in enumerate(questions)}
    rows = []
    for (question, text), who in students.items():
        d = declared.get((question, text))
        rows.append(Named(question, d.explanation if d else text, d.section if d else "",
                          len(who), graded))
    return sorted(rows, key=lambda n: (order.get(n.question, len(order)), n.question,
                                       -n.students, n.explanation))
