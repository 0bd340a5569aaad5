"""Does `pytest autograder/<id> --notebook PATH` give what `grade` gives?

The plugin (autograder/pytest_plugin.py) and the grader collect the same cases
with the same fixtures: for one assignment of each kind (torch, numpy, exam)
and a few notebooks of its corpus or examples, each run through pytest in a
subprocess, as an instructor runs it, every test gets the points the grader
gave it. Also: -k selects, -x stops, and a test module without --notebook is
refused with a message.
"""
from __future__ import annotations

import inspect
import os
import re
import shutil
import subprocess
import sys
import zipfile

import pytest

from autograder import paths
from autograder.engine import assignment as assignment_mod
from tests.assignments import corpus_tools
from tests.conftest import grade, write_notebook

# Heavy (runs pytest on corpus notebooks and grades them again): the fast tier, -m 'not heavy', skips it.
pytestmark = pytest.mark.heavy

POINTS = re.compile(r"^\s*([\d.]+) / ([\d.]+)\s+\S+::(\S+)$", re.M)


def run_pytest(assignment_id: str, notebook, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pytest", f"autograder/{assignment_id}", "--notebook",
         str(notebook), "-p", "no:cacheprovider", "-q", *extra],
        cwd=paths.ROOT, capture_output=True, text=True, timeout=300)


def plugin_points(assignment_id: str, notebook) -> dict[str, float]:
    run = run_pytest(assignment_id, notebook)
    assert run.returncode in (0, 1), run.stdout[-2000:] + run.stderr[-2000:]
    return {name: float(got) for got, _, name in POINTS.findall(run.stdout)}


def corpus_notebooks(assignment_id: str, folder) -> list:
    """The first correct variant and the first two mistakes, as graded by the corpus test."""
    reference = inspect.getsource(assignment_mod.load(assignment_id).reference)
    chosen = [p for p in corpus_tools.variants(assignment_id) if p.parent.name == "correct"][:1]
    chosen += [p for p in corpus_tools.variants(assignment_id) if p.parent.name == "buggy"][:2]
    return [(p, write_notebook(folder / f"{corpus_tools.submission_id(p)}.ipynb",
                               [reference, p.read_text()])) for p in chosen]


@pytest.mark.parametrize("assignment_id", ["hw1_attention", "hw6_encoder_decoder"])
def test_plugin_gives_the_graders_points_on_the_corpus(graded, assignment_id, tmp_path):
    results = graded.results(assignment_id)
    for path, notebook in corpus_notebooks(assignment_id, tmp_path):
        expected = {t.name: t.score for t in results[path].tests}
        assert plugin_points(assignment_id, notebook) == expected, path.name


def test_plugin_gives_the_graders_points_on_the_exam(tmp_path):
    subs = tmp_path / "subs"
    subs.mkdir()
    for name in ("s1001.ipynb", "s1002.ipynb"):
        shutil.copyfile(paths.EXAMPLES / "exam_midterm" / name, subs / name)
    results = grade("exam_midterm", subs, tmp_path / "out")
    assert {r.score for r in results.values()} != {0.0}  # the comparison can fail
    for sid, result in results.items():
        expected = {t.name: t.score for t in result.tests}
        assert plugin_points("exam_midterm", subs / f"{sid}.ipynb") == expected, sid


HANGS_ON_ONE = """
import time
_reference_mask = causal_mask
def causal_mask(n):
    while n == 1:
        time.sleep(1)
    return _reference_mask(n)
"""
"""Hangs asleep: the call's time limit stops it as it stops a busy loop (the attack
corpus's busy loops, tests/security/test_integrity.py), without spending its seconds of CPU."""


def test_a_question_that_hangs_loses_its_later_tests_as_in_grade(tmp_path):
    """Does a causal_mask that hangs on n=1 cost the same tests in pytest as in
    `grade` (the question's tests after the one that timed out are not run)?"""
    subs = tmp_path / "subs"
    subs.mkdir()
    a = assignment_mod.load("hw1_attention")
    notebook = write_notebook(subs / "hangs.ipynb", [inspect.getsource(a.reference), HANGS_ON_ONE])
    result = grade(a.id, subs, tmp_path / "out")["hangs"]
    assert any(t.output.startswith("not run: an earlier test") for t in result.tests)
    assert plugin_points(a.id, notebook) == {t.name: t.score for t in result.tests}


def test_k_selects_and_x_stops(tmp_path):
    notebook = paths.EXAMPLES / "hw1_attention" / "untouched.ipynb"
    run = run_pytest("hw1_attention", notebook, "-k", "rejects_invalid_n or keyword_mask")
    assert sorted(n for _, _, n in POINTS.findall(run.stdout)) == [
        "test_keyword_mask", "test_rejects_invalid_n"], run.stdout
    run = run_pytest("hw1_attention", notebook, "-x")
    assert run.returncode == 1 and "1 failed" in run.stdout and "passed" not in run.stdout


def test_hidden_tests_need_a_notebook():
    run = subprocess.run([sys.executable, "-m", "pytest", "autograder/hw1_attention", "-q",
                          "-p", "no:cacheprovider"], cwd=paths.ROOT, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 4 and "--notebook" in run.stderr, run.stderr


@pytest.mark.parametrize("name, content, says", [
    ("missing.ipynb", None, "does not exist"),
    ("answers.txt", b"print(1)\n", "is not a notebook: give a .ipynb file"),
    ("broken.ipynb", b"{not json", "is not a notebook that can be read: the file is not "
                                   "valid notebook JSON"),
    ("fake.zip", b"not a zip", "is not a zip file"),
])
def test_a_notebook_that_cannot_be_run_is_one_line(tmp_path, name, content, says):
    """Is a --notebook that is missing, no notebook or unreadable JSON a usage
    error of one line (status 4), not a traceback per hidden test?"""
    notebook = tmp_path / name
    if content is not None:
        notebook.write_bytes(content)
    run = run_pytest("hw1_attention", notebook)
    assert run.returncode == 4, run.stdout[-2000:]
    assert f"ERROR: --notebook {notebook} {says}" in run.stderr, run.stderr
    assert len((run.stdout + run.stderr).strip().splitlines()) <= 2, run.stdout + run.stderr


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_an_unreadable_notebook_is_one_line(tmp_path):
    notebook = tmp_path / "closed.ipynb"
    shutil.copyfile(paths.EXAMPLES / "hw1_attention" / "untouched.ipynb", notebook)
    notebook.chmod(0)
    run = run_pytest("hw1_attention", notebook)
    assert run.returncode == 4 and f"--notebook {notebook} cannot be read" in run.stderr


def test_a_zip_holding_the_handout_and_a_copy_runs_the_copy_and_says_so(tmp_path):
    """As in `grade`: of the handout and an edited copy in one zip, the copy is run
    and the summary's note says which file that was."""
    notebook = tmp_path / "export.zip"
    with zipfile.ZipFile(notebook, "w") as zf:
        zf.write(paths.EXAMPLES / "hw1_attention" / "untouched.ipynb", "hw1_attention.ipynb")
        zf.write(paths.EXAMPLES / "hw1_attention" / "full_solution.ipynb", "mine.ipynb")
    run = run_pytest("hw1_attention", notebook, "-k", "rejects_invalid_n")
    assert run.returncode == 0, run.stdout[-2000:]
    assert ("note: hw1_attention.ipynb in this submission is the notebook as handed out, "
            "with no answers; mine.ipynb, which holds answers, was graded instead") in run.stdout
