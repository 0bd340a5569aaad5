"""Do the notebooks' public checks name the mistake a student made?

Each buggy variant of the corpus declares, after its question and hidden tests,
what the public checks of its question say about it (`# public: <fragment>`
lines, or `# public: -` when every one passes; autograder/corpus.py). The
variant runs here over the solution notebook's names, as a student's cell
defining the stub would, and every public check of its question is run as otter
runs it: each that fails must do so with a message holding one of the fragments
(an assert of the check's, or an error raised in the variant's own code, shown with
its type as the notebook shows it), and each fragment must be said by some failing
check. A check that
fails on a neighbouring property ("a -inf key must get weight 0" when the key
did get 0 but the row no longer sums to 1) cannot satisfy a fragment that names
the mistake.
"""
from __future__ import annotations

import contextlib
import functools
import io
import warnings

import pytest

from autograder import corpus, registry
from tests.build.test_public_checks import ASSIGNMENTS, outcome, public_tests, solution_env

VARIANTS = [(a, p) for a in ASSIGNMENTS
            for p in sorted((registry.get(a).corpus / "buggy").glob("*.py"))]


@functools.cache
def _solution(assignment_id: str) -> dict:
    with contextlib.redirect_stdout(io.StringIO()):
        return solution_env(assignment_id)


@functools.cache
def _public(assignment_id: str) -> dict[str, list]:
    return public_tests(assignment_id)


def public_outcomes(assignment_id: str, path) -> dict[str, str]:
    """{check name: outcome} of the public checks of the variant's question."""
    env = dict(_solution(assignment_id))
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        exec(compile(path.read_text(), str(path), "exec"), env)
        return {t.__name__: outcome(t, env, str(path))
                for t in _public(assignment_id)[corpus.declared(path).question]}


def unmet(outcomes: dict[str, str], fragments: tuple[str, ...]) -> list[str]:
    """What breaks the declaration: checks failing otherwise than with a declared
    fragment, and fragments no failing check says."""
    failing = {name: result for name, result in outcomes.items() if result != "passed"}
    wrong = [f"{name}: {result}" for name, result in failing.items()
             if not result.startswith("failed: ")
             or not any(f.lower() in result.lower() for f in fragments)]
    unsaid = [f"no failing check says {f!r}" for f in fragments
              if not any(f.lower() in r.lower() for r in failing.values()
                         if r.startswith("failed: "))]
    return wrong + unsaid


def test_variants_exist():
    assert len(VARIANTS) > 100 and {a for a, _ in VARIANTS} == set(ASSIGNMENTS)


@pytest.mark.parametrize("assignment_id, path", VARIANTS,
                         ids=[f"{a}/{p.stem}" for a, p in VARIANTS])
def test_public_checks_name_the_mistake(assignment_id, path):
    head = corpus.declared(path)
    assert head.public is not None, \
        f"{path}: declare '# public: <fragment>' lines (or '# public: -') after '# fails:'"
    assert all(f.strip() and f != corpus.NO_PUBLIC_FAILURE for f in head.public), \
        f"{path}: '# public: -' stands alone; other fragments must not be empty"
    assert not [f for f in head.public if "test_" in f.lower()], \
        f"{path}: a fragment says what the message says about the mistake, not a test's name"
    problems = unmet(public_outcomes(assignment_id, path), head.public)
    assert not problems, f"{path.name} declares {list(head.public)}:\n" + "\n".join(problems)


def test_unmet_can_fail():
    """Each way a declaration can be wrong is caught, case aside."""
    outcomes = {"test_a": "failed: each row must SUM TO 1", "test_b": "passed"}
    assert unmet(outcomes, ("sum to 1",)) == []
    assert unmet(outcomes, ()) == ["test_a: failed: each row must SUM TO 1"]
    assert unmet(outcomes, ("sum to 1", "-inf")) == ["no failing check says '-inf'"]
    assert unmet(outcomes, ("weight 0",)) != []
    assert unmet({"test_a": "TypeError: sum to 1"}, ("sum to 1",)) != []
    assert unmet({"test_a": "passed"}, ()) == []


def test_public_lines_are_read(tmp_path):
    """Several `# public:` lines are fragments in order; `-` is none; the two-line
    header alone (a `# public:` further down too) declares none."""
    many = tmp_path / "a.py"
    many.write_text("# question: f\n# fails: test_x\n# public: sum to 1\n"
                    "# public: sqrt(d_k)\nx = 1  # public: not a header\n")
    none = tmp_path / "b.py"
    none.write_text("# question: f\n# fails: test_x\n# public: -\n")
    bare = tmp_path / "c.py"
    bare.write_text("# question: f\n# fails: test_x\nx = 1\n# public: too late\n")
    assert corpus.declared(many) == corpus.Declared("f", ("test_x",), ("sum to 1", "sqrt(d_k)"))
    assert corpus.declared(none) == corpus.Declared("f", ("test_x",), ())
    assert corpus.declared(bare) == corpus.Declared("f", ("test_x",))
