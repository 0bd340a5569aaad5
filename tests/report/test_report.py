"""Does grading produce what students and instructors read?

One batch of hw1_attention submissions is graded once through the command
line (`python -m autograder grade ... --roster ... --due ...`): full marks, a
wrong causal_mask, a typical sdpa mistake, untouched stubs, a cell raising an
exception whose message is HTML, a notebook that kills its own process, a
zip that is not one, and a Gradescope-style folder submitted late. The tests read the files it wrote.
"""
from __future__ import annotations

import base64
import contextlib
import html
import csv
import inspect
import json
import os
import re
import shutil
import subprocess
import tempfile
from datetime import datetime, timezone
from pathlib import Path

import pytest
import torch

from autograder import cli, paths, registry
from autograder.engine import assignment as assignment_mod
from tests.conftest import FAST_LIMITS, write_notebook
from tests.assignments import corpus_tools

ID = "hw1_attention"
CORPUS = corpus_tools.CORPUS / ID
LIMITS = [f"--limit={k}={v}" for k, v in FAST_LIMITS.items()]
DUE = "2026-03-01T23:59:00+00:00"
BEFORE_DUE = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc).timestamp()
AFTER_DUE = datetime(2026, 3, 3, 12, 0, tzinfo=timezone.utc).timestamp()

WRONG_MASK = '''
import torch
def causal_mask(n):
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise ValueError("n must be an int >= 1")
    return torch.full((n, n), 7.0)
'''
STUBS = '''
def causal_mask(n):
    raise NotImplementedError

def scaled_dot_product_attention(q, k, v, mask=None):
    raise NotImplementedError

class TinySelfAttn:
    def __init__(self, h, heads):
        raise NotImplementedError
'''
HOSTILE = "raise ValueError('<script>alert(1)</script> ``` |x|')"

ROSTER = """Student,ID,SIS User ID,SIS Login ID,Section
Points Possible,,,,
Full Marks,101,s01,full,A
Wrong Mask,102,s02,wrong_mask,A
Partial Credit,103,s03,partial,B
Un Touched,104,s04,untouched,B
Hostile Cell,105,s05,hostile,B
Lee Late,106,s42,lee,B
Absent Person,107,s07,absent,A
"""


def reference_source() -> str:
    return inspect.getsource(assignment_mod.load(ID).reference)


def make_submissions(folder: Path) -> None:
    ref = reference_source()
    folder.mkdir()
    notebooks = {
        "full": [ref],
        "wrong_mask": [ref, WRONG_MASK],
        "partial": [ref, (CORPUS / "buggy" / "sdpa_no_scaling.py").read_text()],
        "untouched": [STUBS],
        "hostile": [ref, HOSTILE],
        "crash": [ref, "import os\nos._exit(3)"],
    }
    for sub_id, cells in notebooks.items():
        path = write_notebook(folder / f"{sub_id}.ipynb", cells)
        os.utime(path, (BEFORE_DUE, AFTER_DUE if sub_id == "partial" else BEFORE_DUE))
    (folder / "broken.zip").write_bytes(b"this is not a zip file")
    os.utime(folder / "broken.zip", (BEFORE_DUE, BEFORE_DUE))
    late = folder / "late_student"
    late.mkdir()
    write_notebook(late / f"{ID}.ipynb", [ref])
    (folder / "submission_metadata.yml").write_text(  # as in a Gradescope export
        "late_student:\n  :submitters:\n  - :name: Lee Late\n    :sid: s42\n"
        "    :email: lee@example.edu\n  :created_at: 2026-03-02 02:30:00.000000000 +00:00\n")


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """(out dir, printed output) of one graded batch."""
    root = tmp_path_factory.mktemp("report")
    make_submissions(root / "subs")
    (root / "roster.csv").write_text(ROSTER)
    out = root / "out"
    capture = root / "stdout.txt"
    with open(capture, "w") as f, contextlib.redirect_stdout(f):
        code = cli.main(["grade", str(root / "subs"), "--assignment", ID, "--out", str(out),
                         "--roster", str(root / "roster.csv"), "--due", DUE, *LIMITS])
    assert code == 0
    return out, capture.read_text()


def results_json(out: Path, sub: str) -> dict:
    return json.loads((out / sub / "results.json").read_text())


def read_csv(path: Path) -> list[dict]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


# --- student feedback ------------------------------------------------------------------

def test_every_submission_gets_feedback(graded):
    """Is there a feedback.md and feedback.html for every submission, with every test?"""
    out, _ = graded
    a = assignment_mod.load(ID)
    for sub in ("full", "wrong_mask", "partial", "untouched", "hostile", "crash", "late_student"):
        md = (out / sub / "feedback.md").read_text()
        page = (out / sub / "feedback.html").read_text()
        for case in a.cases:
            assert case.title.replace("<", "\\<") in md
            assert html.escape(case.title) in page
        for q in a.questions:
            assert f"## {q}: " in md and f"<h2>{q}: " in page


def test_feedback_shows_points_and_messages_of_results_json(graded):
    """Does the feedback carry, per test, the points and the very message of results.json?"""
    out, _ = graded
    md = (out / "partial" / "feedback.md").read_text()
    total = results_json(out, "partial")["score"]
    assert f"Score: {total:g} / 18" in md
    failed = [t for t in results_json(out, "partial")["tests"] if t["status"] == "failed"]
    assert failed, "the sdpa mistake should fail some tests"
    for t in failed:  # a diagnosis follows the message, after a blank line
        message, _, diagnosis = t["output"].partition("\n\nThis looks like: ")
        assert message in md and (not diagnosis or f"This looks like: {diagnosis}" in md)
        assert f"**failed** ({t['score']:g} / {t['max_score']:g})" in md


def test_wrong_causal_mask_feedback_reveals_no_expected_value(graded):
    """Does a wrong causal_mask's feedback show the student's value and never the reference's?"""
    out, _ = graded
    md = (out / "wrong_mask" / "feedback.md").read_text()
    page = (out / "wrong_mask" / "feedback.html").read_text()
    messages = [t["output"] for t in results_json(out, "wrong_mask")["tests"]
                if t["number"] == "causal_mask" and t["status"] == "failed"]
    assert messages and all(m in md for m in messages)
    assert any("is 7.0, not 0" in m for m in messages), messages  # the student's own value
    rule = "neither 0 nor -inf: a masked score must be -inf"  # the contract's rule, public
    for m in messages:  # the reference is 0.0 below and -inf above the diagonal
        assert "inf" not in m.replace(rule, "") and not re.search(r"(?<![\d.])0\.0(?!\d)", m), m
    for n in (1, 2, 4, 12, 40):
        ref = torch.nn.Transformer.generate_square_subsequent_mask(n)
        for text in (md, page):
            assert str(ref) not in text and repr(ref.tolist()) not in text
    for text in (md, page):
        assert "tensor(" not in text and "generate_square_subsequent_mask" not in text


def test_feedback_contains_no_hidden_test_code(graded):
    """No line of the hidden tests or of the reference (other than the titles) reaches a student."""
    out, _ = graded
    secret = []
    for path in sorted(registry.get(ID).hidden_tests.glob("*.py")):
        for line in path.read_text().splitlines():
            s = line.strip().strip('"').strip()
            if len(s) >= 20 and not s.startswith("#"):
                secret.append(s)
    loaded = assignment_mod.load(ID)
    titles = {c.title for c in loaded.cases}
    shown = [d.text() for ds in loaded.diagnoses.values() for d in ds]  # written for students
    secret = [s for s in secret if s not in titles and not any(s in text for text in shown)]
    for sub in ("full", "wrong_mask", "partial", "untouched"):
        text = (out / sub / "feedback.md").read_text()
        leaked = [s for s in secret if s in text]
        assert not leaked, f"{sub}: {leaked[:3]}"


def test_hostile_messages_are_escaped(graded):
    """Does a cell error whose message is HTML and backticks stay inert in feedback and report?"""
    out, _ = graded
    page = (out / "hostile" / "feedback.html").read_text()
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)" in page
    md = (out / "hostile" / "feedback.md").read_text()
    note = next(line for line in md.splitlines() if "alert(1)" in line)
    fence_before = md[:md.index(note)].rstrip().splitlines()[-1]
    assert set(fence_before) == {"`"} and len(fence_before) > 3, "the note must sit in a longer fence"
    assert "<script>alert" not in (out / "report.html").read_text()


# --- gradebooks ------------------------------------------------------------------------

def test_gradebook_lists_roster_with_statuses(graded):
    """Does gradebook.csv list every roster student (missing and late as such) and the strays?"""
    out, _ = graded
    rows = {r["student"]: r for r in read_csv(out / "gradebook.csv")}
    assert rows["Absent Person"]["status"] == "missing" and rows["Absent Person"]["total"] == ""
    assert rows["Full Marks"]["status"] == "graded" and rows["Full Marks"]["total"] == "18"
    assert rows["Lee Late"]["submission"] == "late_student"  # matched by Gradescope's sid
    assert rows["Lee Late"]["status"] == "late" and rows["Lee Late"]["late_by"] == "2 h 31 min"
    assert rows["Partial Credit"]["status"] == "late"  # by its file time, after --due
    assert "Submitted 2 h 31 min after the due date." in \
        (out / "late_student" / "feedback.md").read_text()
    assert rows["Wrong Mask"]["status"] == "graded" and rows["Wrong Mask"]["late_by"] == ""
    stray = {r["submission"]: r for r in rows.values() if r["on_roster"] == "no"}
    assert sorted(stray) == ["broken", "crash"]
    assert stray["broken"]["status"] == "not graded" and stray["broken"]["total"] == ""
    assert "zip file could not be read" in stray["broken"]["note"]
    assert len(rows) == 9


def test_canvas_export_is_importable(graded):
    """Is canvas.csv in Canvas's import layout, keyed by the roster, missing left blank?"""
    out, _ = graded
    with open(out / "canvas.csv", newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section",
                       "Homework 1: attention and masks"]
    assert rows[1] == ["Points Possible", "", "", "", "", "18"]
    by_login = {r[3]: r for r in rows[2:]}
    assert by_login["full"] == ["Full Marks", "101", "s01", "full", "A", "18"]
    assert by_login["absent"][5] == ""
    assert by_login["lee"][5] == "18"
    assert "crash" not in by_login  # not on the roster: Canvas could not place it
    grades = {r["submission"]: r for r in read_csv(out / "grades.csv")}
    assert by_login["wrong_mask"][5] == f"{float(grades['wrong_mask']['total']):g}"


def test_summary_names_missing_and_stray_students(graded):
    """Does the printed summary say who is missing, who is not on the roster, where the files are?"""
    _, printed = graded
    assert "1 of 7 students have no submission: Absent Person" in printed
    assert "match no roster row" in printed and "crash" in printed
    assert "late: 2 submissions after the due date: late_student, partial" in printed
    assert "report.html" in printed and "canvas.csv" in printed and "feedback.md" in printed


# --- class report ----------------------------------------------------------------------

def test_class_report_content(graded):
    """Does report.html embed the four plots and name the most failed test and the problems?"""
    out, _ = graded
    page = (out / "report.html").read_text()
    images = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', page)
    assert len(images) == 4
    assert all(base64.b64decode(i)[:8] == b"\x89PNG\r\n\x1a\n" for i in images)
    for heading in ("Scores", "Questions", "Tests, most failed first", "Runtime",
                    "Limits and errors"):
        assert f"<h2>{heading}</h2>" in page
    assert "7 graded of 8 entries" in page  # broken.zip is not graded
    tests_table = page[page.index("Tests, most failed first"):page.index("<h2>Runtime")]
    first_row = tests_table[tests_table.index("<td>"):].split("</tr>")[0]
    assert "scaled_dot_product_attention" in first_row or "causal_mask" in first_row
    problems = page[page.index("<h2>Limits and errors"):]
    assert "crash" in problems and "crashed" in problems
    assert "hostile" in problems and "cell error" in problems
    assert "broken" in problems and "not graded" in problems


def test_class_report_ranks_the_misconceptions_named(graded):
    """The partial submission's unscaled scores are named (its feedback says so) and
    counted with the section to reteach; the wrong mask (7.0 everywhere) is no known
    mistake, so no other row appears."""
    out, _ = graded
    page = (out / "report.html").read_text()
    part = page[page.index("<h2>Misconceptions to reteach"):page.index("<h2>Tests, most")]
    rows = part.split("<tr>")[2:]  # the header row first
    assert len(rows) == 1, rows
    assert "scaled_dot_product_attention" in rows[0] and "the scores are not scaled" in rows[0]
    assert "Why divide by sqrt(d_k)?" in html.unescape(rows[0]) and "1 of 7" in rows[0]
    assert "the scores are not scaled" in (out / "partial" / "feedback.md").read_text()


@pytest.mark.browser
def test_class_report_in_a_headless_browser(graded):
    """Does a real browser render the page with every plot decoded? (screenshot kept)"""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("chromium is not installed (as root: apt-get install -y chromium); "
                    "the class report was not checked in a browser")
    out, _ = graded
    keep = paths.ROOT / "out" / "test-artifacts"
    keep.mkdir(parents=True, exist_ok=True)
    shot = keep / f"{ID}_class_report.png"
    shutil.copy(out / "report.html", keep / f"{ID}_class_report.html")
    dom = _chromium(chromium, out / "report.html", "--dump-dom")
    assert 'data-plots-loaded="4"' in dom, "a plot did not decode in the browser"
    assert 'class="broken"' not in dom
    _chromium(chromium, out / "report.html", f"--screenshot={shot}", "--window-size=1200,2400")
    print(f"\nscreenshot of the class report: {shot}")
    _assert_not_blank(shot, (1200, 2400))
    student = keep / f"{ID}_feedback_wrong_mask.png"
    _chromium(chromium, out / "wrong_mask" / "feedback.html", f"--screenshot={student}",
              "--window-size=1000,1400")
    print(f"screenshot of a student's feedback: {student}")


def _chromium(binary: str, page: Path, *args: str) -> str:
    with tempfile.TemporaryDirectory() as profile:
        proc = subprocess.run(
            [binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
             "--no-first-run", "--disable-background-networking", "--disable-component-update",
             "--disable-sync", f"--user-data-dir={profile}", "--virtual-time-budget=5000",
             *args, page.resolve().as_uri()],
            capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


def _assert_not_blank(png: Path, size: tuple[int, int]) -> None:
    import matplotlib.image
    pixels = matplotlib.image.imread(png)
    assert pixels.shape[1::-1] == size
    rgb = pixels[..., :3]
    coloured = (rgb.max(axis=2) - rgb.min(axis=2) > 0.2).mean()  # the plots' blue/green/red
    assert rgb.std() > 0.05 and coloured > 0.01, "the screenshot looks empty"
