"""The class's misconceptions: how many students' feedback named each diagnosis.

A diagnosis (engine/diagnoses/) is the text a failing test's feedback
shows when the student's answers are those of one known mistake. Ranked here per
question, most named first, with the notebook section to reteach; a student is
counted once per diagnosis however many of their tests named it. Only the text
reaches a result, so the section is the declared Diagnosis's (a text no longer
declared keeps its count, without a section). An exam counts them apart per
variant too (`group`): a variant whose numbers make one mistake common shows.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable
from dataclasses import dataclass


@dataclass(frozen=True)
class Named:
    question: str
    explanation: str
    section: str
    students: int
    graded: int
    """Submissions graded (the share's denominator): those of the group, when grouped."""
    group: Hashable = None
    """The key the students were counted apart by (an exam's variant), None ungrouped."""


def ranked(results, diagnoses: dict, questions: list[str],
           group: Callable[[object, str], Hashable] | None = None) -> list[Named]:
    """Per question in `questions`' order (others after, by name), the diagnoses
    named in `results`' tests, most students first (ties by explanation).
    `diagnoses`: {question: its Diagnosis entries} of the assignment.
    `group(result, question)`: a key to count apart within a question (an exam's
    variant of it; None when the result has none), rows then per (question, key)
    in key order, each share of the graded submissions of that key."""
    declared = {(q, p.text()): p for q, ds in diagnoses.items() for d in ds
                for p in d.parts or (d,)}
    key = group or (lambda result, question: None)
    students: dict[tuple[str, Hashable, str], set[str]] = {}
    graded: Counter = Counter()
    for r in results:
        if not r.error:
            graded.update({(q, key(r, q)) for q in {*questions, *(t.question for t in r.tests)}})
        for t in r.tests:
            for text in t.diagnosis.splitlines():  # a combined diagnosis: a line a mistake
                students.setdefault((t.question, key(r, t.question), text),
                                    set()).add(r.submission)
    order = {q: i for i, q in enumerate(questions)}
    rows = []
    for (question, k, text), who in students.items():
        d = declared.get((question, text))
        rows.append(Named(question, d.explanation if d else text, d.section if d else "",
                          len(who), graded[question, k], k))
    return sorted(rows, key=lambda n: (order.get(n.question, len(order)), n.question,
                                       _order(n.group), -n.students, n.explanation))


def _order(k) -> tuple:
    """Keys in order (numbers before other keys), None last (a result that recorded none)."""
    number = isinstance(k, (int, float))
    return (k is None, not number, k if number else str(k))
