"""Grading by hand: the anonymous export, the rubric-scores file and its merge.

The demo exam (examples/exam_midterm, two free-response questions of 4 and 3
points) is graded once; its report stage then runs as often as each test
needs, into folders of its own: an export, a grader filling the rubric, a
re-run, a merge. Each refusal of a bad rubric row is checked with its line,
and through `grade`, before any grading starts. A homework with a manual
question of its own shows that nothing here is the exam's.
"""
from __future__ import annotations

import csv
import dataclasses
import io
import shutil
import stat

import pytest

from autograder import cli, paths
from autograder import grade as pipeline
from autograder.engine import assignment as assignment_mod
from autograder.engine import batch as batch_mod
from autograder.engine import config as config_mod
from autograder.engine.results import SubmissionResult
from autograder.course import manual_codes, manual_scores, rubric
from autograder.report import manual_export
from autograder.report import run as report_run
from tests.conftest import FAST_LIMITS

# Heavy (grades exam batches several times): the fast tier, -m 'not heavy', skips it.
pytestmark = pytest.mark.heavy

DEMO = paths.EXAMPLES / "exam_midterm"
MANUAL = {"fr_bidirectional": 4.0, "fr_variant_check": 3.0}
AUTOGRADED = {"s1001": 21.0, "s1002": 10.5, "s1003": 12.5, "s1004": 0.0, "123456": 21.0}
"""The demo's autograded totals (autograder/exam_midterm/examples.py EXPECTED)."""
NAMES = ("s1001", "s1002", "s1003", "s1004", "123456", "Grace", "s1005", "grace@example.edu")
"""What names a demo student: ids, the export's submitter."""


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """The demo exam graded once: the Batch (its out folder is never reported into)."""
    if not DEMO.is_dir():
        pytest.skip("no demo exam submissions")
    out = tmp_path_factory.mktemp("manual") / "graded"
    return batch_mod.grade_folder("exam_midterm", DEMO, out, progress=False, limits=FAST_LIMITS)


def into(graded, out, only=None):
    """The graded batch as if graded into `out` (only the submissions `only`)."""
    results = [r for r in graded.results if only is None or r.submission in only]
    out.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(graded.out / "grades.csv", out / "grades.csv")
    return dataclasses.replace(graded, out=out, results=results)


def report(batch, scores=None, anonymous=True) -> list[str]:
    """The report stage as `grade` runs it, with a rubric-scores file or none."""
    prepared = report_run.prepare(batch.out, manual=scores, assignment="exam_midterm",
                                  anonymous=anonymous)
    return pipeline.report_stage(batch, prepared)  # the batch carries its folder


def read_csv(path):
    return list(csv.DictReader(io.StringIO(path.read_text())))


def key(out) -> dict[str, str]:
    """submission id -> code."""
    return {row["submission"]: row["code"] for row in read_csv(out / manual_codes.KEY)}


def fill(out, points: dict[tuple[str, str], str], comment="well argued") -> None:
    """The grader's work: points (by submission and question) into DIR's rubric file."""
    codes = key(out)
    path = manual_export.template_path(out)
    rows = read_csv(path)
    for row in rows:
        sid = next(s for s, c in codes.items() if c == row["code"])
        if (sid, row["question"]) in points:
            row["points"], row["comment"] = points[(sid, row["question"])], comment
    buf = io.StringIO()
    writer = csv.DictWriter(buf, rubric.COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    path.write_text(buf.getvalue())


def all_points(value="2"):
    return {(sid, q): value for sid in AUTOGRADED for q in MANUAL}


# ---- the export -------------------------------------------------------------------------

def test_the_export_is_anonymous_with_codes_stable_across_runs(graded, tmp_path):
    out = tmp_path / "out"
    lines = "\n".join(report(into(graded, out)))
    page = (out / manual_export.FOLDER / manual_export.PAGE).read_text()
    template = manual_export.template_path(out).read_text()
    codes = key(out)
    assert sorted(codes) == sorted(AUTOGRADED)
    assert len(set(codes.values())) == len(codes)
    for code in codes.values():
        assert code.startswith("M") and code in page and code in template
    for name in NAMES:  # nothing on the graders' side names a student
        assert name not in page and name not in template
    assert "mask_fraction" in page and "seq_len=" in page  # the numbers fr_bidirectional needs
    assert "d_model=" in page and "cross_attention_shape" not in page  # and only those
    assert "manual/responses.html (anonymous)" in lines and "manual_key.csv" in lines
    first = (out / manual_codes.KEY).read_bytes(), page
    report(into(graded, out))  # a re-run: the same codes, the same page
    assert ((out / manual_codes.KEY).read_bytes(),
            (out / manual_export.FOLDER / manual_export.PAGE).read_text()) == first
    other = tmp_path / "other"
    report(into(graded, other))  # another folder, another secret: other codes
    assert set(key(other).values()).isdisjoint(codes.values())


def test_the_key_is_the_instructors_and_outside_the_graders_folder(graded, tmp_path):
    out = tmp_path / "out"
    report(into(graded, out))
    for private in (out / manual_codes.KEY, out / manual_codes.SECRET):
        assert stat.S_IMODE(private.stat().st_mode) == 0o600
    shared = {p.name for p in (out / manual_export.FOLDER).iterdir()}
    assert shared == {manual_export.PAGE, manual_export.TEMPLATE}
    rows = read_csv(manual_export.template_path(out))
    assert [(r["points"], r["comment"]) for r in rows] == [("", "")] * 10
    assert {(r["code"], r["question"]) for r in rows} == {
        (code, q) for code in key(out).values() for q in MANUAL}
    assert [r["code"] for r in rows] == sorted(r["code"] for r in rows)  # not the ids' order


def test_without_scores_the_gradebooks_stay_autograded(graded, tmp_path):
    out = tmp_path / "out"
    lines = "\n".join(report(into(graded, out)))
    gradebook = {r["submission"]: r for r in read_csv(out / "gradebook.csv")}
    assert {s: float(r["total"]) for s, r in gradebook.items()} == AUTOGRADED
    assert {r["max_total"] for r in gradebook.values()} == {"21"}
    assert "autograded points only" in lines and "--manual-scores FILE" in lines


@pytest.mark.parametrize("possible, expected", [
    ("28", AUTOGRADED),  # the Canvas column is the whole exam: 21 of 28 until merged
    ("21", AUTOGRADED),  # the column is the autograded part alone
    ("100", {s: round(t * 100 / 28, 2) for s, t in AUTOGRADED.items()}),
])
def test_before_the_merge_canvas_scores_are_never_scaled_up_to_the_whole(
        graded, tmp_path, possible, expected):
    """Scaling 21 autograded points to a 28-point column would give full marks
    before any free response was read."""
    out = tmp_path / "out"
    roster = tmp_path / "roster.csv"
    sis = {sid: "s1005" if sid == "123456" else sid for sid in AUTOGRADED}  # the export's sid
    roster.write_text("Student,ID,SIS User ID,SIS Login ID,Section,Midterm (777)\n"
                      f"    Points Possible,,,,,{possible}\n"
                      + "".join(f"Student {sid},{9000 + i},{sid},,A,\n"
                                for i, sid in enumerate(sis.values())))
    prepared = report_run.prepare(out, roster_path=roster, assignment="exam_midterm",
                                  canvas_column="Midterm (777)")
    pipeline.report_stage(into(graded, out), prepared)
    canvas = list(csv.reader(io.StringIO((out / "canvas.csv").read_text())))
    assert canvas[0][-1] == "Midterm (777)"
    assert {row[2]: float(row[-1]) for row in canvas[2:]} == {sis[s]: t for s, t in expected.items()}


def test_no_anonymous_shows_who_each_code_is(graded, tmp_path):
    out = tmp_path / "out"
    report(into(graded, out), anonymous=False)
    page = (out / manual_export.FOLDER / manual_export.PAGE).read_text()
    for sid, code in key(out).items():
        assert code in page and f"<code>{sid}</code>" in page
    assert "Grace H" in page
    assert "s1001" not in manual_export.template_path(out).read_text()  # the codes, as ever


def test_the_rubric_file_is_never_overwritten_and_gains_new_submissions(graded, tmp_path):
    out = tmp_path / "out"
    report(into(graded, out, only={"s1001", "s1002"}))
    fill(out, {("s1001", "fr_bidirectional"): "3.5"}, comment='fine, "mostly"')
    path = manual_export.template_path(out)
    filled = path.read_bytes()
    lines = "\n".join(report(into(graded, out)))  # three more submissions came in
    now = path.read_bytes()
    assert now.startswith(filled)  # the grader's bytes, untouched
    added = read_csv(path)[4:]
    codes = key(out)
    assert sorted((r["code"], r["question"]) for r in added) == sorted(
        (codes[s], q) for s in ("s1003", "s1004", "123456") for q in MANUAL)
    assert "6 rows added" in lines
    report(into(graded, out))  # nothing new: nothing added
    assert path.read_bytes() == now
    assert key(out)["s1001"] == codes["s1001"]


def test_a_rubric_file_that_is_not_csv_any_more_is_left_alone(graded, tmp_path):
    out = tmp_path / "out"
    report(into(graded, out, only={"s1001"}))
    path = manual_export.template_path(out)
    path.write_text("code;question;points;comment\n")
    lines = "\n".join(report(into(graded, out)))
    assert path.read_text() == "code;question;points;comment\n"
    assert "not a rubric-scores CSV any more" in lines


# ---- the merge --------------------------------------------------------------------------

def test_scores_merge_into_gradebook_canvas_and_feedback(graded, tmp_path):
    out = tmp_path / "out"
    report(into(graded, out))
    points = all_points("2")
    points[("s1002", "fr_bidirectional")] = "0.5"
    fill(out, points, comment="<b>see</b> the 12 d^2 rule")
    grades_before = (out / "grades.csv").read_bytes()
    lines = "\n".join(report(into(graded, out), manual_export.template_path(out)))
    gradebook = {r["submission"]: r for r in read_csv(out / "gradebook.csv")}
    expected = {sid: total + 4 for sid, total in AUTOGRADED.items()}
    expected["s1002"] = AUTOGRADED["s1002"] + 2.5
    assert {s: float(r["total"]) for s, r in gradebook.items()} == expected
    assert {r["max_total"] for r in gradebook.values()} == {"28"}
    assert {r["status"] for r in gradebook.values()} == {"graded"}
    canvas = list(csv.reader(io.StringIO((out / "canvas.csv").read_text())))
    assert canvas[1][-1] == "28"
    assert sorted(float(row[-1]) for row in canvas[2:]) == sorted(expected.values())
    assert (out / "grades.csv").read_bytes() == grades_before  # the autograded part, as ever
    md = (out / "s1002" / "feedback.md").read_text()
    assert "Score: 13 / 28" in md
    assert "| fr_bidirectional | 0.5 | 4 |" in md and "## fr_variant_check: 2 / 3" in md
    assert "<b>see</b> the 12 d^2 rule" in md  # the comment, in a code block
    html = (out / "s1002" / "feedback.html").read_text()
    assert "&lt;b&gt;see&lt;/b&gt;" in html and "<b>see</b>" not in html
    assert "10 of 10 merged" in lines and "grades.csv stays the autograded part" in lines


def test_a_blank_score_is_not_yet_graded_never_zero(graded, tmp_path):
    out = tmp_path / "out"
    report(into(graded, out))
    points = all_points("3")
    del points[("s1001", "fr_variant_check")]  # the grader has not got there yet
    fill(out, points)
    lines = "\n".join(report(into(graded, out), manual_export.template_path(out)))
    gradebook = {r["submission"]: r for r in read_csv(out / "gradebook.csv")}
    assert gradebook["s1001"]["status"] == "not yet graded"
    assert gradebook["s1001"]["note"] == "not yet graded by hand: fr_variant_check"
    assert float(gradebook["s1001"]["total"]) == 21 + 3  # what is known so far
    assert gradebook["s1002"]["status"] == "graded"
    canvas = {row[3]: row[-1] for row in csv.reader(io.StringIO((out / "canvas.csv").read_text()))}
    assert canvas["s1001"] == ""  # blank until every manual score is in
    assert canvas["s1002"] == "16.5"
    md = (out / "s1001" / "feedback.md").read_text()
    assert "| fr_variant_check | not yet graded | 3 |" in md
    assert "(fr_variant_check not yet graded)" in md
    assert "fr_variant_check: 0" not in md and "| fr_variant_check | 0 |" not in md
    assert f"not yet graded: 1 ({key(out)['s1001']} fr_variant_check)" in lines
    assert "9 of 10 merged" in lines


def test_rerunning_merges_the_scores_again(graded, tmp_path):
    out = tmp_path / "out"
    report(into(graded, out))
    fill(out, all_points("1"))
    scores = manual_export.template_path(out)
    report(into(graded, out), scores)
    first = (out / "gradebook.csv").read_bytes()
    report(into(graded, out), scores)  # grading again with the same file
    assert (out / "gradebook.csv").read_bytes() == first
    totals = {r["submission"]: r["total"] for r in read_csv(out / "gradebook.csv")}
    assert totals["s1001"] == "23" and totals["s1004"] == "2"


# ---- refusals ---------------------------------------------------------------------------

HEADER = "code,question,points,comment\n"


def bad_rows(codes: dict[str, str]) -> dict[str, tuple[str, str]]:
    """name -> (the file's text, what the refusal says of its line 3)."""
    a, b = codes["s1001"], codes["s1002"]
    return {
        "unknown code": (f"{a},fr_bidirectional,1,\nMZZZZZZZZ,fr_bidirectional,1,\n",
                         "unknown code 'MZZZZZZZZ'"),
        "unknown question": (f"{a},fr_bidirectional,1,\n{a},encoder_params,1,\n",
                             "unknown question 'encoder_params'"),
        "not a number": (f"{a},fr_bidirectional,1,\n{b},fr_bidirectional,\"2,5\",\n",
                         "points '2,5' are not a number"),
        "not finite": (f"{a},fr_bidirectional,1,\n{b},fr_bidirectional,inf,\n",
                       "points 'inf' are not a number"),
        "negative": (f"{a},fr_bidirectional,1,\n{b},fr_bidirectional,-0.5,\n",
                     "points -0.5 are below 0"),
        "over the points": (f"{a},fr_bidirectional,1,\n{b},fr_variant_check,3.5,\n",
                            "points 3.5 are more than the question's 3"),
        "duplicate": (f"{a},fr_bidirectional,1,\n{a.lower()} ,fr_bidirectional,2,\n",
                      f"{a} fr_bidirectional is given twice (also on line 2)"),
    }


@pytest.fixture(scope="module")
def exported(graded, tmp_path_factory):
    out = tmp_path_factory.mktemp("exported") / "out"
    report(into(graded, out))
    return out


@pytest.mark.parametrize("case", ["unknown code", "unknown question", "not a number",
                                  "not finite", "negative", "over the points", "duplicate"])
def test_each_bad_row_is_refused_with_its_line(exported, tmp_path, case):
    text, says = bad_rows(key(exported))[case]
    path = tmp_path / "scores.csv"
    path.write_text(HEADER + text)
    with pytest.raises(rubric.RubricError) as caught:
        manual_scores.prepare(path, "exam_midterm", exported)
    message = str(caught.value)
    assert f"line 3: {says}" in message
    assert "line 2:" not in message  # the good row is not blamed


def test_refused_before_grading_with_exit_status_2(exported, tmp_path, capsys, monkeypatch):
    """Every mistake of the file is listed (with a multi-line comment counted
    right), and no grading time is spent."""
    def no_grading(*args, **kwargs):
        raise AssertionError("graded although the rubric scores were refused")
    monkeypatch.setattr(pipeline, "grade_stage", no_grading)
    a = key(exported)["s1001"]
    path = tmp_path / "scores.csv"
    path.write_text(HEADER + f'{a},fr_bidirectional,1,"two\nlines"\n{a},fr_variant_check,x,\n'
                    f"{a},fr_variant_check,4,\n")
    code = cli.main(["grade", str(DEMO), "--assignment", "exam_midterm", "--out", str(exported),
                     "--manual-scores", str(path)])
    err = capsys.readouterr().err
    assert code == 2
    assert "line 4: points 'x' are not a number" in err
    assert "line 5: points 4 are more than the question's 3" in err


@pytest.mark.parametrize("text, says", [
    ("", "is empty"),
    ("code;question;points;comment\n", "line 1: the header must name the columns"),
    ("\ncode,question,comment\n", "line 2: the header must name the columns code, question, "
                                  "points, comment; missing points"),
])
def test_a_file_that_is_not_the_rubric_is_refused(exported, tmp_path, text, says):
    path = tmp_path / "scores.csv"
    path.write_text(text)
    with pytest.raises(rubric.RubricError, match=says):
        manual_scores.prepare(path, "exam_midterm", exported)


def test_bytes_that_are_not_utf8_are_refused_with_their_line(exported, tmp_path):
    path = tmp_path / "scores.csv"
    a = key(exported)["s1001"]
    path.write_bytes(f"{HEADER}{a},fr_bidirectional,1,ok\n{a},fr_variant_check,1,".encode()
                     + b"caf\xe9\n")
    with pytest.raises(rubric.RubricError, match="line 3: not UTF-8"):
        manual_scores.prepare(path, "exam_midterm", exported)


def test_a_spreadsheets_save_is_read(exported, tmp_path):
    """A BOM, CRLF, extra columns, columns in another order, blank lines, lower-case codes."""
    a = key(exported)["s1001"]
    path = tmp_path / "scores.csv"
    path.write_bytes(("\ufeffgrader,Question,Code,Points,Comment\r\n\r\n"
                      f"ta1,fr_bidirectional,{a.lower()},2.5,ok\r\n"
                      f"ta1,fr_variant_check,{a},,\r\n").encode())
    given = manual_scores.prepare(path, "exam_midterm", exported)
    assert given.scores[(a, "fr_bidirectional")].points == 2.5
    assert given.scores[(a, "fr_variant_check")].points is None


def test_scores_need_an_export_and_manual_questions(exported, tmp_path):
    path = tmp_path / "scores.csv"
    path.write_text(HEADER)
    with pytest.raises(rubric.RubricError, match="holds no export"):
        manual_scores.prepare(path, "exam_midterm", tmp_path / "fresh")
    with pytest.raises(rubric.RubricError, match="hw1_attention has no manual questions"):
        manual_scores.prepare(path, "hw1_attention", exported)


# ---- what a manual question is ----------------------------------------------------------

def test_the_exam_declares_its_manual_points_in_the_grading_config():
    config = config_mod.load("exam_midterm")
    assert {q: m.points for q, m in config.manual.items()} == MANUAL
    assert set(config.manual).isdisjoint(config.questions)  # not grades.csv's columns


@pytest.mark.parametrize("toml, says", [
    ('[exam]\nfree_response = ["fr_a"]\n', r"free-response questions \['fr_a'\] of \[exam\] "
                                           "have no points"),
    ("[manual.fr_a]\npoints = 0\n", "points must be a number above 0"),
    ('[manual.fr_a]\npoints = "4"\n', "points must be a number above 0"),
    ("[manual.fr_a]\npoints = nan\n", "points must be a number above 0"),
    ("[manual.fr_a]\npoints = 4\nweight = 2\n", r"unknown keys \['weight'\]"),
    ('[manual.fr_a]\npoints = 4\nnumbers = ["nope"]\n', "numbers must list autograded"),
    ('[manual."fr a"]\npoints = 4\n', "letters, digits"),
    ("[manual.q1]\npoints = 4\n[tests.q1]\ntest_x = 1\n", "also an autograded question"),
])
def test_a_bad_manual_declaration_is_refused(tmp_path, monkeypatch, toml, says):
    path = tmp_path / "demo.toml"
    path.write_text(toml)
    record = dataclasses.replace(config_mod.registry.get("hw1_attention"), config=path)
    monkeypatch.setattr(config_mod.registry, "get", lambda _: record)
    with pytest.raises(config_mod.ConfigError, match=says):
        config_mod.load("demo")


def test_build_takes_manual_points_from_the_config():
    """The master's `points: 4` and "(4 points)" must agree with [manual]."""
    import jupytext

    from autograder.build import points
    from autograder.build.transforms import BuildError
    config = config_mod.load("exam_midterm")
    text = (paths.SOLUTIONS / "exam_midterm" / "exam_midterm.py").read_text()
    points.apply(jupytext.reads(text, fmt="py:percent"), config)  # agrees
    fewer = dataclasses.replace(config, manual={"fr_bidirectional": config.manual[
        "fr_bidirectional"], "fr_variant_check": config_mod.ManualQuestion(5.0)})
    with pytest.raises(BuildError, match=r"'fr_variant_check': the master says 3 points.*"
                                         r"gives 5 \(\[manual.fr_variant_check\] points\)"):
        points.apply(jupytext.reads(text, fmt="py:percent"), fewer)
    undeclared = dataclasses.replace(config, manual={})
    with pytest.raises(BuildError, match=r"no \[manual.fr_bidirectional\]"):
        points.apply(jupytext.reads(text, fmt="py:percent"), undeclared)


def test_a_homeworks_manual_question_is_exported_and_merged(tmp_path):
    """Nothing is the exam's: hw1 with a manual question of its own, on hand-made results."""
    loaded = assignment_mod.load("hw1_attention")
    config = dataclasses.replace(loaded.config,
                                 manual={"explain": config_mod.ManualQuestion(2.0)})
    a = dataclasses.replace(loaded, config=config)
    cells = [{"cell_type": "markdown", "source": "<!-- free response: explain -->\nWhy?"},
             {"cell_type": "markdown", "source": "<script>x()</script> because"},
             {"cell_type": "code", "source": "x = 1"}]
    results = [SubmissionResult("ada", "hw1_attention", cells=cells),
               SubmissionResult("bob", "hw1_attention")]
    out = tmp_path / "out"
    out.mkdir()
    batch = batch_mod.Batch(a, out, results=results)
    manual_export.write(batch)
    page = (out / manual_export.FOLDER / manual_export.PAGE).read_text()
    assert "&lt;script&gt;x()&lt;/script&gt; because" in page and "<script>" not in page
    assert "ada" not in page and "(no answer)" in page
    codes = manual_codes.issue(out, a.id, ["ada", "bob"])
    scores = {(codes["ada"], "explain"): rubric.Score(codes["ada"], "explain", 1.5, "ok", 2)}
    merge = manual_scores.Merge(batch, manual_scores.Given(tmp_path / "f.csv", scores))
    assert merge.max_total == a.max_total + 2
    assert merge.result(results[0]).score == 1.5 and merge.pending("bob") == ("explain",)
    assert merge.result(results[1]).score == 0 and not results[0].tests  # a copy, not the result


def test_codes_are_derived_from_the_secret_alone():
    one = manual_codes.code(b"k" * 64, "exam_midterm", "s1001")
    assert one == manual_codes.code(b"k" * 64, "exam_midterm", "s1001")
    assert one != manual_codes.code(b"j" * 64, "exam_midterm", "s1001")
    assert one != manual_codes.code(b"k" * 64, "hw1_attention", "s1001")
    assert len(one) == 9 and set(one[1:]) <= set(manual_codes.ALPHABET)


def test_a_code_once_issued_keeps_its_submission(tmp_path, monkeypatch):
    """A newcomer whose code is taken gets a longer one; the key is only added to."""
    first = manual_codes.issue(tmp_path, "hw", ["a"])
    monkeypatch.setattr(manual_codes, "code", lambda secret, assignment, sid, length=8:
                        first["a"] if length == 8 else "M" + "A" * length)  # b's is a's
    both = manual_codes.issue(tmp_path, "hw", ["a", "b"])
    assert both["a"] == first["a"] != both["b"]
    assert both["b"] == "M" + "A" * manual_codes.LENGTHS[1]
    assert manual_codes.read_key(tmp_path) == {first["a"]: "a", both["b"]: "b"}
