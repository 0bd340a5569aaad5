"""Can a student borrow another's identity, or hide their lateness, with a
submission_metadata.yml uploaded inside their own submission folder?

Only the export's own file (beside its submission folders, at its root) says
who submitted and when. Each test plants a yml in Bob's (homework) or Di's
(exam) submission folder that names another student, on time, under every
name a lookup could use, then grades through the command line three ways:
the whole export; the submission alone by its path, inside its export; and
the submission folder copied out of its export, by its path (the export's yml
is then not beside it: who and when are unknown, and the grader says so).
"""
from __future__ import annotations

import contextlib
import csv
import inspect
import io
import json
import os
import shutil
from datetime import datetime
from pathlib import Path

import pytest

from autograder import cli, paths
from autograder.engine import assignment as assignment_mod
from tests.conftest import FAST_LIMITS, write_notebook
from tests.exam.test_grading import notebook as exam_notebook

# Heavy (grades Gradescope exports): the fast tier, -m 'not heavy', skips it.
pytestmark = pytest.mark.heavy

DUE = "2026-03-01T23:59-08:00"
FIVE_DAYS_LATE = datetime.fromisoformat("2026-03-06T23:00-08:00").timestamp()
LIMITS = [f"--limit={k}={v}" for k, v in FAST_LIMITS.items()]
HOW = ["whole export", "by its path", "copied out"]


def _record(name: str, who: tuple[str, str, str], created: str) -> str:
    return (f"{name}:\n  :submitters:\n  - :name: {who[0]}\n    :sid: {who[1]}\n"
            f"    :email: {who[2]}\n  :created_at: {created}.000000000 -08:00\n")


def _planted(names: tuple[str, ...], who: tuple[str, str, str]) -> str:
    """The forged yml: `who`, on time, under each of `names`."""
    return "".join(_record(n, who, "2026-02-28 10:05:00") for n in names)


def _grade(target: Path, assignment: str, out: Path, roster: Path) -> str:
    """`grade target` as an instructor runs it; what it printed on stderr."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = cli.main(["grade", str(target), "--assignment", assignment, "--out", str(out),
                         "--roster", str(roster), "--due", DUE, "--quiet", *LIMITS])
    assert code == 0, err.getvalue()[-2000:]
    return err.getvalue()


def _target(export: Path, folder: str, how: str, tmp_path: Path) -> Path:
    if how == "whole export":
        return export
    if how == "by its path":
        return export / folder
    copied = tmp_path / "copied" / folder  # the export's yml stays behind
    shutil.copytree(export / folder, copied)
    for path in (copied, *copied.iterdir()):
        os.utime(path, (FIVE_DAYS_LATE, FIVE_DAYS_LATE))
    return copied


def _rows(path: Path) -> list[dict]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def _canvas_scores(out: Path) -> dict[str, str]:
    """{student: score cell} of canvas.csv (its last column)."""
    rows = _rows(out / "canvas.csv")
    column = list(rows[0])[-1]
    return {r["Student"]: r[column] for r in rows if r["Student"] != "Points Possible"}


HW_ROSTER = """Student,ID,SIS User ID,SIS Login ID,Section
Alice A,1,s2001,alice,A
Bob M,2,s2002,bob,A
"""
ALICE, BOB = ("Alice A", "s2001", "alice@uni.edu"), ("Bob M", "s2002", "bob@uni.edu")


@pytest.mark.parametrize("how", HOW)
def test_a_homework_is_credited_to_its_own_student_and_stays_late(tmp_path, how):
    """Bob (full marks, 5 days late) plants a yml naming Alice (whose own work scores 0),
    on time: Alice is never credited with Bob's 18 points and Bob's lateness stays."""
    a = assignment_mod.load("hw1_attention")
    export = tmp_path / "export"
    (export / "submission_1001").mkdir(parents=True)
    (export / "submission_1002").mkdir()
    (export / "submission_1001" / "hw1_attention.ipynb").write_bytes(
        (paths.ASSIGNMENTS / a.id / f"{a.id}.ipynb").read_bytes())  # Alice: the handout
    write_notebook(export / "submission_1002" / "hw1_attention.ipynb",
                   [inspect.getsource(a.reference)])
    (export / "submission_metadata.yml").write_text(
        _record("submission_1001", ALICE, "2026-03-01 10:05:00")
        + _record("submission_1002", BOB, "2026-03-06 23:00:00"))
    (export / "submission_1002" / "submission_metadata.yml").write_text(
        _planted(("hw1_attention.ipynb", "submission_1002", "submission_1001"), ALICE))
    (tmp_path / "roster.csv").write_text(HW_ROSTER)
    out = tmp_path / "out"
    err = _grade(_target(export, "submission_1002", how, tmp_path), a.id, out,
                 tmp_path / "roster.csv")

    book = {r["submission"]: r for r in _rows(out / "gradebook.csv") if r["submission"]}
    bobs = [r for r in book.values() if float(r["total"] or 0) == a.max_total]
    assert len(bobs) == 1, book
    (bob,) = bobs
    assert bob["student"] != ALICE[0] and bob["status"] == "late", bob
    assert bob["late_by"] == "4 d 23 h", bob  # from 23:59 the day due to 23:00 five days on
    canvas = _canvas_scores(out)
    assert canvas.get(ALICE[0]) in ("", "0", "0.0"), canvas  # never Bob's 18
    assert "ignored submission_metadata.yml inside 1 submissions (submission_1002)" in err, err
    if how == "copied out":  # nobody the grader can trust says who or when: it says so
        assert bob["submitted"] != "2026-02-28T10:05:00-08:00"
        assert "who submitted and when are unknown for the submission folder submission_1002" \
            in err, err
    else:
        assert (bob["student"], bob["submitted"]) == (BOB[0], "2026-03-06T23:00:00-08:00")
        assert float(canvas[BOB[0]]) == a.max_total


EXAM_ROSTER = """Student,ID,SIS User ID,SIS Login ID,Section
Cy C,1,s4001,cy,A
Di D,2,s4002,di,A
"""
CY, DI = ("Cy C", "s4001", "cy@uni.edu"), ("Di D", "s4002", "di@uni.edu")
EXAM_FULL = 21.0


@pytest.mark.parametrize("how", HOW)
def test_a_copied_exam_keeps_its_copiers_identity_flag_and_score(tmp_path, how):
    """Di hands in Cy's notebook (STUDENT_ID and answers Cy's), 5 days late, with a yml
    naming Cy, on time: never full marks, always flagged, Cy never credited."""
    export = tmp_path / "export"
    exam_notebook(export / "submission_111" / "exam_midterm.ipynb", CY[1], CY[1])
    exam_notebook(export / "submission_112" / "exam_midterm.ipynb", CY[1], CY[1])
    (export / "submission_metadata.yml").write_text(
        _record("submission_111", CY, "2026-03-01 10:05:00")
        + _record("submission_112", DI, "2026-03-06 23:00:00"))
    (export / "submission_112" / "submission_metadata.yml").write_text(
        _planted(("exam_midterm.ipynb", "submission_112", "submission_111"), CY))
    (tmp_path / "roster.csv").write_text(EXAM_ROSTER)
    out = tmp_path / "out"
    target = _target(export, "submission_112", how, tmp_path)
    err = _grade(target, "exam_midterm", out, tmp_path / "roster.csv")

    results = {p.parent.name: json.loads(p.read_text()) for p in out.glob("*/results.json")}
    di_id = "submission_112" if how == "whole export" else "exam_midterm"
    di = results[di_id]
    assert di["score"] < EXAM_FULL and "IDENTITY FLAG" in di["output"], di["score"]
    book = {r["submission"]: r for r in _rows(out / "gradebook.csv") if r["submission"]}
    assert book[di_id]["student"] != CY[0] and book[di_id]["status"] == "late", book[di_id]
    assert "ignored submission_metadata.yml inside 1 submissions (submission_112)" in err, err
    canvas = _canvas_scores(out)
    if how == "whole export":
        assert float(canvas[CY[0]]) == EXAM_FULL  # Cy's own exam
    else:
        assert canvas.get(CY[0]) == "", canvas
    if how == "copied out":
        assert "not the submitter (submission_112)" in di["output"], di["output"]
        assert "who submitted and when are unknown" in err, err
    else:
        assert di["score"] == 10 and float(canvas[DI[0]]) == 10, (di["score"], canvas)
        assert "not the submitter (s4002)" in di["output"], di["output"]
