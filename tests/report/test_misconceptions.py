"""The class report's misconceptions: counted per student, ranked per question."""
from __future__ import annotations

from autograder.engine.diagnoses.declared import Diagnosis
from autograder.engine import results as res
from autograder.report import misconceptions

SWAP = Diagnosis("pe", print, "sin and cos swapped", "Part 2")
ONE = Diagnosis("pe", print, "positions from one", "Part 2")
MASK = Diagnosis("mask", print, "diagonal hidden", "Part 1")
DIAGNOSES = {"pe": (SWAP, ONE), "mask": (MASK,)}


def _result(name, *named, error=""):
    tests = [res.TestResult(d.question if d else "pe", f"test_{i}", "t", 0.0, 1.0, "differs",
                        "visible", diagnosis=d.text() if d else "")
             for i, d in enumerate(named)]
    return res.SubmissionResult(name, "a", tests=tests, error=error)


def test_ranked_per_question_then_by_students_once_each():
    results = [_result("s1", SWAP, SWAP, MASK), _result("s2", SWAP), _result("s3", ONE),
               _result("s4", None), _result("s5", error="not a notebook")]
    rows = misconceptions.ranked(results, DIAGNOSES, ["mask", "pe"])
    assert [(n.question, n.explanation, n.section, n.students) for n in rows] == [
        ("mask", "diagonal hidden", "Part 1", 1),
        ("pe", "sin and cos swapped", "Part 2", 2),  # s1's two tests count once
        ("pe", "positions from one", "Part 2", 1)]
    assert {n.graded for n in rows} == {4}


def test_a_combined_diagnosis_counts_each_of_its_mistakes():
    """A diagnosis naming two mistakes at once counts a student under each, once."""
    from autograder.engine.diagnoses.declared import combined
    both = combined(print, SWAP, ONE)
    rows = misconceptions.ranked([_result("s1", both, SWAP), _result("s2", ONE)],
                                 {"pe": (SWAP, ONE, both)}, ["pe"])
    assert [(n.explanation, n.section, n.students) for n in rows] == [
        ("positions from one", "Part 2", 2), ("sin and cos swapped", "Part 2", 1)]


def test_a_text_no_longer_declared_keeps_its_count():
    rows = misconceptions.ranked([_result("s1", SWAP)], {}, ["pe"])
    assert [(n.explanation, n.section, n.students) for n in rows] == [(SWAP.text(), "", 1)]
    assert misconceptions.ranked([_result("s1", None)], DIAGNOSES, ["pe"]) == []


def _in_variant(result, variant):
    result.annotations["exam"] = {"variants": {"pe": variant, "mask": 0}}
    return result


def test_grouped_counts_each_key_apart_of_its_own_graded():
    """Counted per (question, key): each share is of that key's graded submissions; a
    result with no key for the question counts under None, last."""
    results = [_in_variant(_result("s1", SWAP), 3), _in_variant(_result("s2", SWAP), 3),
               _in_variant(_result("s3", ONE), 1), _in_variant(_result("s4", None), 1),
               _in_variant(_result("s5", None), 3), _result("s6", SWAP),
               _in_variant(_result("s7", error="not a notebook"), 1)]
    variant = lambda r, q: r.annotations.get("exam", {}).get("variants", {}).get(q)
    rows = misconceptions.ranked(results, DIAGNOSES, ["mask", "pe"], group=variant)
    assert [(n.question, n.group, n.explanation, n.students, n.graded) for n in rows] == [
        ("pe", 1, "positions from one", 1, 2),
        ("pe", 3, "sin and cos swapped", 2, 3),
        ("pe", None, "sin and cos swapped", 1, 1)]
    # ungrouped, the same results count together
    assert [(n.students, n.graded, n.group) for n in
            misconceptions.ranked(results, DIAGNOSES, ["pe"])] == [(3, 6, None), (1, 6, None)]
