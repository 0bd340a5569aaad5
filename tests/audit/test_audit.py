"""Does `audit` make every one-change mutant of a stub, and judge each the way
its definitions say (killed, survived, cascaded, equivalent), through the real
engine?"""
from __future__ import annotations

import ast
import dataclasses

import pytest

from autograder import cli, registry
from autograder.audit import mutate, run
from autograder.engine import assignment as assignment_mod
from autograder.engine.results import SubmissionResult
from autograder.engine.results import TestResult as Case  # not collected by pytest

# Heavy (audits assignments (mutants graded)): the fast tier, -m 'not heavy', skips it.
pytestmark = pytest.mark.heavy

SOURCE = '''
import torch


def helper(x):
    return x + 1


def stub(x, y, dim=-1, eps=1e-5):
    """A docstring with 1 + 2 in it."""
    if x.shape[0] < 2:
        raise ValueError("too short")
    z = torch.softmax(x @ y, dim=dim) / 2
    z = torch.where(z > 0, z, eps)
    total = z.sum(dim=0, keepdims=True)
    return z.transpose(-2, -1), total - eps
'''


def test_each_operator_makes_mutants_of_the_stub_only():
    found = mutate.mutants(SOURCE, ["stub"])
    operators = {m.operator for m in found}
    assert {"operator", "comparison", "constant", "dim", "keepdims", "dropped argument",
            "argument order", "dropped statement", "negated if", "returned values"} <= operators
    assert all(m.question == "stub" and m.id.startswith("stub:") for m in found)
    for m in found:
        compile(m.source, "<mutant>", "exec")
        tree = ast.parse(m.source)
        assert ast.unparse(tree.body[1]) == ast.unparse(ast.parse(SOURCE).body[1])  # helper
        assert '"""A docstring with 1 + 2 in it."""' in m.source  # docstrings are not code
    descriptions = {m.description for m in found}
    assert "`x @ y` -> `x * y`" in descriptions and "`dim` -> `dim`" not in descriptions
    assert not any("transpose(-1, -2)" in m.source for m in found)  # it commutes: no mutant
    assert len({m.id for m in found}) == len(found)


def test_mutant_ids_are_stable_and_follow_their_stub():
    """The same source gives the same ids; an edit elsewhere keeps them; an edit
    of the stub changes them."""
    ids = [m.id for m in mutate.mutants(SOURCE, ["stub"])]
    assert ids == [m.id for m in mutate.mutants(SOURCE, ["stub"])]
    elsewhere = SOURCE.replace("return x + 1", "return x + 2")
    assert ids == [m.id for m in mutate.mutants(elsewhere, ["stub"])]
    edited = SOURCE.replace("/ 2", "/ 3")
    assert set(ids) != {m.id for m in mutate.mutants(edited, ["stub"])}


def test_only_functions_the_tests_call_on_the_student_are_mutated():
    """The exam's expected answers to its short questions are the grader's (no test
    calls them on the student): not mutated; its coding stubs and every homework stub are."""
    def stubs(assignment_id):
        return run.graded_stubs(registry.get(assignment_id),
                                assignment_mod.load(assignment_id).questions)
    assert stubs("exam_midterm") == ["key_padding_mask", "perplexity"]
    assert stubs("hw1_attention") == assignment_mod.load("hw1_attention").questions


def result(scores: dict[tuple[str, str], float], error: str | None = None) -> SubmissionResult:
    tests = [Case(q, n, n, s, 1.0, "", "hidden") for (q, n), s in scores.items()]
    return SubmissionResult("m", "demo", tests=tests, error=error)


@pytest.mark.parametrize("scores, declared, kind", [
    ({("a", "t1"): 0, ("a", "t2"): 1, ("b", "t3"): 1}, {}, "killed"),
    ({("a", "t1"): 1, ("a", "t2"): 1, ("b", "t3"): 1}, {}, "survived"),
    ({("a", "t1"): 1, ("a", "t2"): 1, ("b", "t3"): 1}, {"equivalent": "same floats"}, "equivalent"),
    ({("a", "t1"): 0, ("a", "t2"): 1, ("b", "t3"): 0}, {}, "cascaded"),
    ({("a", "t1"): 1, ("a", "t2"): 1, ("b", "t3"): 0, ("c", "t4"): 0}, {}, "cascaded"),
])
def test_a_mutant_is_judged_against_the_references_own_points(scores, declared, kind):
    """t4 is failed by the reference too: no test of a mutant."""
    reference = result({("a", "t1"): 1, ("a", "t2"): 1, ("b", "t3"): 1, ("c", "t4"): 0})
    mutant = mutate.Mutant("a:constant:1234abcd", "a", "constant", 3, "`1` -> `2`", "", "")
    declarations = {"equivalent": {}, "cascade": {}}
    for table, reason in declared.items():
        declarations[table][mutant.id] = reason
    outcome = run._classify(mutant, result(scores), reference, declarations)
    assert outcome.kind == kind
    assert "c.t4" not in outcome.failed
    assert run._classify(mutant, result(scores, error="not a notebook"), reference,
                         declarations).kind == "broken"


def test_the_audit_finds_the_blind_spots_of_thinner_tests(monkeypatch):
    """With causal_mask's tests cut to the first one (shape and dtype), its value
    mutants survive and the audit fails (with all of them, hw1 has none:
    tests/audit/test_every_assignment.py)."""
    load = assignment_mod.load

    def thinner(assignment_id, limits=None):
        loaded = load(assignment_id, limits)
        keep = [c for c in loaded.cases if c.question != "causal_mask"]
        first = next(c for c in loaded.cases if c.question == "causal_mask")
        return dataclasses.replace(loaded, cases=(first, *keep))
    monkeypatch.setattr(run.assignment_mod, "load", thinner)
    thin = run.audit("hw1_attention", with_corpus=False, progress=False)
    survivors = [m for m in thin.mutants if m.kind == "survived"]
    assert survivors and all(m.mutant.question == "causal_mask" for m in survivors)
    assert any("survived: causal_mask:" in p for p in thin.problems)
    # With all of them, hw1's audit (corpus included) has no problem:
    # tests/audit/test_every_assignment.py, which audits every assignment.


def test_an_unknown_assignment_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["audit", "hw9_nothing"])
    assert exit_.value.code == 2 and "unknown assignment" in capsys.readouterr().err
