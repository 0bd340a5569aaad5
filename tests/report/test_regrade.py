"""Does regrading into the same folder reuse nothing stale and explain what changed?

First run: three submissions. Then the instructor raises the points of one
causal_mask test (2 -> 3, through a copy of the grading config), one student
resubmits a fixed notebook, one submission is withdrawn and one is new.
"""
from __future__ import annotations

import contextlib
import csv
import inspect
import io
import shutil
from pathlib import Path

import pytest

from autograder import cli, paths
from autograder.engine import assignment as assignment_mod
from tests.conftest import FAST_LIMITS, write_notebook
from tests.assignments import corpus_tools

# Heavy (grades batches twice): the fast tier, -m 'not heavy', skips it.
pytestmark = pytest.mark.heavy

ID = "hw1_attention"
BUGGY = corpus_tools.CORPUS / ID / "buggy"
LIMITS = [f"--limit={k}={v}" for k, v in FAST_LIMITS.items()]
VALUES = ("causal_mask: masks exactly the keys after the query: 0 on and below the diagonal, "
          "not 0 above, n from 1 to 12 and 40")


def grade(subs: Path, out: Path) -> str:
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert cli.main(["grade", str(subs), "--assignment", ID, "--out", str(out), *LIMITS]) == 0
    return printed.getvalue()


def test_regrade_after_points_change_and_resubmission(tmp_path, monkeypatch):
    """Are changed scores listed with their amount and the tests that changed, stale ones flagged?"""
    ref = inspect.getsource(assignment_mod.load(ID).reference)
    subs, out = tmp_path / "subs", tmp_path / "out"
    subs.mkdir()
    write_notebook(subs / "ana.ipynb", [ref])
    write_notebook(subs / "ben.ipynb", [ref, (BUGGY / "sdpa_no_scaling.py").read_text()])
    write_notebook(subs / "gone.ipynb", [ref, (BUGGY / "causal_mask_lower_triangle.py").read_text()])
    first = grade(subs, out)
    assert "\nregrade: " not in first and not (out / "regrade.md").exists()

    config = tmp_path / "config"
    config.mkdir()
    toml = (paths.CONFIG / f"{ID}.toml").read_text()
    assert "\ntest_values = 1\n" in toml
    (config / f"{ID}.toml").write_text(toml.replace("\ntest_values = 1\n", "\ntest_values = 2\n"))
    monkeypatch.setattr(paths, "CONFIG", config)
    write_notebook(subs / "ben.ipynb", [ref])  # resubmitted, fixed
    (subs / "gone.ipynb").unlink()
    write_notebook(subs / "cleo.ipynb", [ref, (BUGGY / "causal_mask_lower_triangle.py").read_text()])
    second = grade(subs, out)

    md = (out / "regrade.md").read_text()
    assert "3 submissions graded again; 2 scores changed, 1 new submissions, " \
           "1 earlier submissions not in this run." in md
    assert f"- {VALUES}: points 1 -> 2" in md
    assert "| ana | 18 | 19 | +1 |" in md
    assert "## ana: 18 -> 19 (+1)" in md and f"- {VALUES}: passed 1/1 -> passed 2/2" in md
    assert "## ben: 10.5 -> 19 (+8.5)" in md or "## ben: " in md
    ben = md[md.index("## ben: "):].split("\n## ")[0]
    assert "scaled_dot_product_attention: weights and output equal" in ben
    assert "failed 0/2 -> passed 2/2" in ben
    assert "- cleo: " in md[md.index("## New submissions"):]
    assert "- gone/ (was " in md[md.index("## Stale results"):]
    assert "regrade: 2 scores changed (ben +" in second and "ana +1" in second

    with open(out / "gradebook.csv", newline="") as f:
        listed = [r["submission"] for r in csv.DictReader(f)]
    assert listed == ["ana", "ben", "cleo"]  # the withdrawn submission is in no export
    assert "gone" not in (out / "report.html").read_text()
    assert "gone" not in (out / "grades.csv").read_text()
    fixed = (out / "ben" / "feedback.md").read_text()
    assert "Score: 19 / 19" in fixed and "**failed**" not in fixed


def test_regrade_without_changes(tmp_path):
    """Does grading the same batch twice say that no score changed?"""
    ref = inspect.getsource(assignment_mod.load(ID).reference)
    subs, out = tmp_path / "subs", tmp_path / "out"
    subs.mkdir()
    write_notebook(subs / "ana.ipynb", [ref, (BUGGY / "tsa_always_causal.py").read_text()])
    grade(subs, out)
    shutil.copy(out / "ana" / "feedback.md", tmp_path / "before.md")
    printed = grade(subs, out)
    assert "regrade: no score changed" in printed
    assert "0 scores changed, 0 new submissions, 0 earlier" in (out / "regrade.md").read_text()
    assert (out / "ana" / "feedback.md").read_text() == (tmp_path / "before.md").read_text()
