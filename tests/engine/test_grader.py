"""Does the grader (engine/grader.Grader) start once, hold the references to one
thread, grade with its own settings, and leave nothing running once closed?"""
from __future__ import annotations

import pytest

from autograder.engine import assignment as assignment_mod
from autograder.engine import batch
from autograder.engine.grader import Grader, NotStarted
from autograder.engine.intake.submissions import SubmissionError
from autograder.engine.isolation.workers import WorkerDied
from autograder.engine.results import SubmissionResult
from tests.conftest import FAST_LIMITS, write_notebook

ID = "hw1_attention"


def test_a_grader_never_started_grades_only_what_needs_no_worker():
    """An unreadable notebook gets its zero result; a readable one cannot reach a worker."""
    grader = Grader(assignment_mod.load(ID))
    with pytest.raises(NotStarted):
        grader.template

    def unreadable() -> bytes:
        raise SubmissionError("no notebook")
    result = batch.grade_submission(grader, SubmissionResult("s1", ID), unreadable)
    assert result.error == "no notebook"
    assert len(result.tests) == len(grader.assignment.cases)
    assert all(t.score == 0 and t.output == "not graded: no notebook" for t in result.tests)
    grader.close()  # nothing to close: no error


def test_the_grader_starts_once_grades_with_its_settings_and_closes(tmp_path):
    torch = pytest.importorskip("torch")
    torch.set_num_threads(2)
    notebook = write_notebook(tmp_path / "s1.ipynb", ["x = 1"]).read_bytes()
    with Grader(assignment_mod.load(ID, FAST_LIMITS), [tmp_path], profile=True) as grader:
        assert torch.get_num_threads() == 1  # the references' numerics: one thread
        template = grader.template
        assert template.proc.poll() is None
        assert grader.line() == template.line() and grader.line()
        assert grader.limits.notebook_seconds == FAST_LIMITS["notebook_seconds"]
        with pytest.raises(RuntimeError, match="started already"):
            grader.start()
        result = batch.grade_submission(grader, SubmissionResult("s1", ID), lambda: notebook)
    assert not result.error, result.error
    assert not any(t.output.startswith("not graded") for t in result.tests)
    assert len(result.tests) == len(grader.assignment.cases)
    assert result.profile["starts"] and result.profile["cells"]  # profile=True reached the runner
    assert template.proc.poll() is not None  # the template is gone
    with pytest.raises(WorkerDied, match="stopping"):  # a closed grader is a stopped batch
        grader.template
    grader.close()  # twice: no error
