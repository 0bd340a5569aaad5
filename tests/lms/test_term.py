"""One term end to end: scripts/term_walkthrough.sh run as an instructor would.

The script grades hw1 and hw2 from Canvas downloads (canvas.csv and
feedback_for_canvas.zip; Canvas's LATE mark shown, never penalised: the
download has no times) and from folders whose file times are the submission
times (the course policy: a penalty down to its floor, an extension, late
days spent across both homeworks until the budget runs out), waives late
days in the ledger and grades hw2 again, then grades the midterm and merges
its rubric scores. The facts checked here are the ones its output shows.
"""
from __future__ import annotations

import csv
import io
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from autograder import paths

SCRIPT = Path(paths.__file__).resolve().parent.parent / "scripts" / "term_walkthrough.sh"
HW1, HW2, EXAM = ("HW1 Attention (123456)", "HW2 Positions and Parameters (123457)",
                  "Midterm Exam (123458)")
MANUAL = 4 + 1.5
"""The rubric points the script's TA gives every exam (fr_bidirectional, fr_variant_check)."""


def rows(path: Path) -> list[dict]:
    return list(csv.DictReader(io.StringIO(path.read_text())))


def by(path: Path, key: str) -> dict[str, dict]:
    return {row[key]: row for row in rows(path)}


def canvas(path: Path) -> tuple[str, dict[str, str]]:
    """(the column canvas.csv fills, SIS user id -> its cell)."""
    table = list(csv.reader(io.StringIO(path.read_text())))
    assert table[1][0] == "Points Possible"
    return table[0][-1], {row[2]: row[-1] for row in table[2:]}


@pytest.fixture(scope="module")
def term(tmp_path_factory):
    if not (paths.EXAMPLES / "exam_midterm").is_dir():
        pytest.skip("no example submissions")
    root = tmp_path_factory.mktemp("term") / "term"
    done = subprocess.run(["bash", str(SCRIPT), str(root)], cwd=SCRIPT.parent.parent,
                          env={**os.environ, "PYTHON": sys.executable},
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return root, done.stdout


pytestmark = pytest.mark.slow(minutes=2)  # seven runs of grade


def test_hw1_penalty_extension_and_late_days(term):
    root, _ = term
    book = by(root / "hw1_attention" / "out" / "gradebook.csv", "submission")
    alan, emmy, kurt = book["s1002"], book["s1003"], book["s1004"]
    assert alan["late_by"] == "8 d 22 h" and alan["late_days"] == ""  # days would save nothing
    assert float(alan["final"]) == float(alan["total"]) / 2 and "(floor)" in alan["policy"]
    assert float(kurt["penalty"]) == 0 and kurt["final"] == kurt["total"]
    assert "2 extra days" in kurt["policy"] and kurt["late_by"] == ""
    assert emmy["late_days"] == "2" and float(emmy["penalty"]) == 0
    column, scores = canvas(root / "hw1_attention" / "out" / "canvas.csv")
    assert column == HW1 and float(scores["s1002"]) == float(alan["final"])


def test_a_canvas_download_shows_late_but_never_penalises(term):
    root, _ = term
    book = by(root / "hw1_attention" / "out_canvas" / "gradebook.csv", "submission")
    alan = book["turingalan_1002"]
    assert alan["status"] == "late" and alan["late_by"] == "recorded late by Canvas"
    assert float(alan["penalty"]) == 0 and alan["final"] == alan["total"]
    assert "time unknown" in alan["policy"]


def test_the_budget_runs_out_on_hw2_then_a_waiver_is_kept(term):
    root, _ = term
    before = rows(root / "kept" / "late_days_before_waiver.csv")
    assert [(r["student"], r["assignment"], r["days"], r["source"]) for r in before] == [
        ("s1003", "hw1_attention", "2", "auto"), ("s1003", "hw2_positions_params", "1", "auto")]
    emmy = by(root / "kept" / "hw2_gradebook_before_waiver.csv", "submission")["s1003"]
    assert emmy["late_days"] == "1" and "0 left" in emmy["policy"]
    assert 0 < float(emmy["penalty"]) and float(emmy["final"]) == pytest.approx(
        float(emmy["total"]) * 0.8)  # 1 d 5 h left after one day: 2 started days, 20%
    ada = by(root / "kept" / "hw2_gradebook_before_waiver.csv", "submission")["s1001"]
    assert ada["late_by"] == "11 min" and "grace" in ada["policy"] and ada["late_days"] == ""
    after = rows(root / "course" / "late_days.csv")
    waived = [r for r in after if r["assignment"] == "hw1_attention"]
    assert waived == [{**before[0], "days": "0", "source": "instructor",
                       "note": "waived: the server was down"}]  # the edit, kept as made
    assert [r["days"] for r in after if r["assignment"] == "hw2_positions_params"] == ["3"]
    emmy = by(root / "hw2_positions_params" / "out" / "gradebook.csv", "submission")["s1003"]
    assert emmy["late_days"] == "3" and float(emmy["penalty"]) == 0


def test_hw2_canvas_scores_are_scaled_to_points_possible(term):
    root, _ = term
    column, scores = canvas(root / "hw2_positions_params" / "out" / "canvas.csv")
    book = by(root / "hw2_positions_params" / "out" / "gradebook.csv", "submission")
    assert column == HW2 and scores["s1005"] == ""  # missing: left ungraded
    for sid in ("s1001", "s1002", "s1003", "s1004"):
        row = book[sid]
        assert float(scores[sid]) == round(float(row["final"]) * 100 / float(row["max_total"]), 2)


def test_the_exams_rubric_scores_are_merged(term):
    root, _ = term
    auto = by(root / "kept" / "exam_gradebook_autograded.csv", "submission")
    merged = by(root / "exam_out" / "gradebook.csv", "submission")
    assert set(merged) == set(auto) and len(merged) == 5
    for sid, row in merged.items():
        assert float(row["total"]) == float(auto[sid]["total"]) + MANUAL
        assert row["max_total"] == "28" and auto[sid]["max_total"] == "21"
    column, scores = canvas(root / "exam_out" / "canvas.csv")
    sis = {"123456": "s1005"}
    assert column == EXAM
    assert {sis.get(s, s): float(r["total"]) for s, r in merged.items()} == \
        {s: float(v) for s, v in scores.items()}
    _, before = canvas(root / "kept" / "exam_canvas_autograded.csv")  # 21 of 28, not scaled up
    assert {sis.get(s, s): float(r["total"]) for s, r in auto.items()} == \
        {s: float(v) for s, v in before.items()}


def test_feedback_zips_are_named_with_the_downloads_prefixes(term):
    root, output = term
    for hw in ("hw1_attention", "hw2_positions_params"):
        names = os.listdir(root / hw / "canvas_download")  # <prefix><hw>.ipynb
        assert names and all(n.endswith(f"_{hw}.ipynb") for n in names)
        prefixes = [n[:-len(f"{hw}.ipynb")] for n in names]
        with zipfile.ZipFile(root / hw / "out_canvas" / "feedback_for_canvas.zip") as z:
            assert sorted(z.namelist()) == sorted(f"{p}feedback.html" for p in prefixes)
        assert canvas(root / hw / "out_canvas" / "canvas.csv")[0] == {
            "hw1_attention": HW1, "hw2_positions_params": HW2}[hw]
    assert "turingalan_LATE_1002_7100002_feedback.html" in output
    assert output.count("files written by this step:") == 7
