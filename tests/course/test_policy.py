"""Does the course policy (`grade --policy course.toml`) bite where it should?

The rules on their own (policy.py: one minute late, a daylight-saving change,
grace, floor, latest accepted), then whole report stages on hand-made
results of hw1 and hw2 (no grading): an extension, Gradescope's own due
date, late days that run out mid-term, the ledger an instructor edits, an
excused student; last, the mistakes in the files that stop `grade` before
it grades, each with its line.
"""
from __future__ import annotations

import csv
from datetime import datetime, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from autograder import cli
from autograder.engine import assignment as assignment_mod
from autograder.engine import batch as batch_mod
from autograder.engine.results import SubmissionResult
from autograder.engine.results import TestResult as Case  # not collected by pytest
from autograder.course import accommodations, late_days, penalties, policy, policy_file
from autograder.report import classreport
from autograder.report import run as report_run

NY = ZoneInfo("America/New_York")
HW1, HW2 = "hw1_attention", "hw2_positions_params"
COURSE = """\
[course]
timezone = "America/New_York"
late_days = 3
accommodations = "accommodations.csv"

[defaults]
penalty_percent = 10
per = "day"
mode = "stepped"

[assignments.hw1_attention]
due = "2026-03-01T23:59"

[assignments.hw2_positions_params]
due = "2026-03-15T23:59"
"""
NO_ACCOMMODATIONS = "student,assignment,due,extra_days,excused,reason\n"


# --- the rules alone ---------------------------------------------------------------------

def rule(**kw) -> policy.LateRule:
    return policy.LateRule(**{"penalty": 0.1, "per": "day", "mode": "stepped", **kw})


def test_one_minute_late_costs_a_started_day():
    days, final, why, units = policy.decide(rule(), 18.0, 60.0, available=0)
    assert (days, final, why, units) == (0, 16.2, "penalty", 1)
    assert policy.decide(rule(), 18.0, 0.0, available=0)[1:3] == (18.0, "on time")
    assert policy.decide(rule(), 18.0, 86400.0 + 1, available=0)[1] == 14.4  # 2 started days


def test_per_hour_penalty_counts_real_hours_across_daylight_saving():
    """Due Saturday 23:59 in New York; submitted at 23:59 on Sunday, March 8 2026 (clocks
    sprang forward): 23 real hours, though the wall clock says 24. In November, 25."""
    hourly = rule(penalty=0.01, per="hour", mode="linear")
    march = (datetime(2026, 3, 7, 23, 59, tzinfo=NY), datetime(2026, 3, 8, 23, 59, tzinfo=NY))
    assert (march[1] - march[0]).total_seconds() == 24 * 3600  # Python's wall-clock difference
    late = policy.elapsed(*march)
    assert late == 23 * 3600
    assert policy.decide(hourly, 100.0, late, available=0)[1] == 77.0
    november = (datetime(2026, 10, 31, 23, 59, tzinfo=NY), datetime(2026, 11, 1, 23, 59, tzinfo=NY))
    assert policy.elapsed(*november) == 25 * 3600
    assert policy.decide(hourly, 100.0, policy.elapsed(*november), available=0)[1] == 75.0


def test_grace_forgives_then_lateness_counts_from_the_due_date():
    graced = rule(grace=15 * 60, per="hour", penalty=0.05)
    assert policy.decide(graced, 20.0, 14 * 60, available=0)[1:3] == (20.0, "grace")
    assert policy.decide(graced, 20.0, 16 * 60, available=0)[1:3] == (19.0, "penalty")
    assert policy.decide(graced, 20.0, 61 * 60, available=0)[1] == 18.0  # 2 started hours


def test_floor_and_latest_accepted():
    floored = rule(floor=0.5, max_late=10 * 86400)
    assert policy.decide(floored, 18.0, 2.5 * 86400, available=0)[1:3] == (12.6, "penalty")
    assert policy.decide(floored, 18.0, 8 * 86400, available=0)[1:3] == (9.0, "floor")
    assert policy.decide(floored, 18.0, 10 * 86400 + 1, available=0)[1:3] == (0.0, "max late")
    assert policy.decide(rule(), 18.0, 20 * 86400, available=0)[1] == 0.0  # never below 0


def test_late_days_are_spent_only_where_they_help():
    """Whole days rounded up, at most what is left, none where they save nothing."""
    assert policy.decide(rule(), 18.0, 1.2 * 86400, available=3)[:3] == (2, 18.0, "late days")
    assert policy.decide(rule(), 18.0, 1.2 * 86400, available=1)[:2] == (1, 16.2)
    assert policy.decide(rule(), 0.0, 1.2 * 86400, available=3)[0] == 0  # nothing to save
    past = rule(max_late=86400)
    assert policy.decide(past, 18.0, 4 * 86400, available=2)[:2] == (0, 0.0)
    assert policy.decide(rule(allow_late_days=False), 18.0, 3600, available=3)[0] == 0
    assert policy.decide(rule(), 18.0, 3600, available=3, fixed_days=0)[:2] == (0, 16.2)


# --- whole report stages on hand-made results --------------------------------------------

@pytest.fixture(autouse=True)
def no_class_report(monkeypatch):
    """report.html (seconds of plotting) is not what these tests read."""
    monkeypatch.setattr(classreport, "write", lambda path, *args: path.write_text("skipped"))


def case_results(assignment_id: str, submission: str, created: str, fraction: float = 1.0,
                 **user) -> SubmissionResult:
    a = assignment_mod.load(assignment_id)
    tests = [Case(c.question, c.name, c.title, c.points * fraction, c.points, "passed",
                  "visible") for c in a.cases]
    member = {"name": submission.title(), "sid": submission.upper(), **user}
    return SubmissionResult(submission, assignment_id, tests=tests, metadata={
        "created_at": created, "assignment": {"due_date": None}, "users": [member]})


def grade(root: Path, assignment: str, results: list[SubmissionResult],
          course: str = COURSE, accommodations_csv: str = NO_ACCOMMODATIONS) -> dict:
    """write_all for `results` with the policy in root/course.toml; gradebook rows by
    submission, and the printed lines."""
    (root / "course.toml").write_text(course)
    (root / "accommodations.csv").write_text(accommodations_csv)
    out = root / assignment
    prepared = report_run.prepare(out, None, None, root / "course.toml", assignment)
    batch = batch_mod.Batch(assignment_mod.load(assignment), out, results=results,
                            submissions=root)
    lines = report_run.write_all(batch, prepared)
    assert not [line for line in lines if "could not" in line], lines
    with open(out / "gradebook.csv", newline="") as f:
        book = {row["submission"]: row for row in csv.DictReader(f)}
    return {"book": book, "lines": lines, "out": out}


def feedback_line(out: Path, submission: str) -> str:
    return (out / submission / "feedback.md").read_text().splitlines()[4]


def canvas_scores(out: Path) -> dict[str, str]:
    with open(out / "canvas.csv", newline="") as f:
        rows = list(csv.reader(f))[2:]
    return {row[2]: row[5] for row in rows}


def ledger_rows(root: Path) -> list[dict]:
    with open(root / "late_days.csv", newline="") as f:
        return list(csv.DictReader(f))


def test_a_minute_late_through_the_reports(tmp_path):
    """grades.csv's raw points stay; gradebook.csv shows raw, lateness, penalty and final;
    canvas.csv the final score; the feedback says how it was made."""
    no_days = COURSE.replace("late_days = 3", "late_days = 0")
    made = grade(tmp_path, HW1, [case_results(HW1, "ada", "2026-03-02T00:00:00-05:00"),
                                 case_results(HW1, "bob", "2026-03-01T23:58:00-05:00")],
                 course=no_days)
    ada = made["book"]["ada"]
    assert (ada["status"], ada["total"], ada["late_by"], ada["penalty"], ada["final"]) == \
        ("late", "18", "1 min", "1.8", "16.2")
    assert made["book"]["bob"]["status"] == "graded" and made["book"]["bob"]["final"] == "18"
    assert canvas_scores(made["out"]) == {"ADA": "16.2", "BOB": "18"}
    assert feedback_line(made["out"], "ada") == (
        "Submitted 1 min late (due 2026-03-01 23:59 EST); 10% per started day (1 started day) "
        "→ −1.8 points; final 16.2 / 18.  ")
    assert not (tmp_path / "late_days.csv").exists()  # no budget, no ledger


def test_a_due_date_across_daylight_saving_in_the_reports(tmp_path):
    """A per-hour penalty counts real hours: 23 from Saturday 23:59 EST to Sunday 23:59 EDT."""
    hourly = COURSE.replace('per = "day"', 'per = "hour"').replace(
        'mode = "stepped"', 'mode = "linear"').replace("penalty_percent = 10",
                                                       "penalty_percent = 1").replace(
        '"2026-03-01T23:59"', '"2026-03-07T23:59"').replace("late_days = 3", "late_days = 0")
    made = grade(tmp_path, HW1, [case_results(HW1, "ada", "2026-03-08T23:59:00-04:00")],
                 course=hourly)
    ada = made["book"]["ada"]
    assert (ada["late_by"], ada["penalty"], ada["final"]) == ("23 h", "4.14", "13.86")
    assert "1% per hour (23 h) → −4.14 points" in feedback_line(made["out"], "ada")


def test_an_extension_overrides_the_penalty(tmp_path):
    """Two days late by the assignment's date, on time by the student's own: no penalty and
    no late day; the reason stays with the instructor. Gradescope's own due date counts too."""
    made = grade(tmp_path, HW1, [
        case_results(HW1, "ada", "2026-03-03T20:00:00-05:00"),
        case_results(HW1, "bob", "2026-03-03T20:00:00-05:00"),
        case_results(HW1, "cy", "2026-03-03T20:00:00-05:00",
                     assignment={"due_date": "2026-03-04T23:59:00-05:00"})],
        accommodations_csv=NO_ACCOMMODATIONS + "ada,hw1_attention,,3,,medical note\n")
    book = made["book"]
    assert (book["ada"]["status"], book["ada"]["penalty"], book["ada"]["late_days"]) == \
        ("graded", "0", "")
    assert "3 extra days (accommodations line 2: medical note)" in book["ada"]["policy"]
    line = feedback_line(made["out"], "ada")
    assert "extended due date (2026-03-04 23:59 EST)" in line and "medical" not in line
    assert book["cy"]["status"] == "graded" and book["cy"]["final"] == "18"  # Gradescope's
    assert book["cy"]["policy"] == "extension on Gradescope"
    assert feedback_line(made["out"], "cy").startswith("Submitted by your extended due date "
                                                      "(2026-03-04 23:59 EST); no penalty")
    assert book["bob"]["status"] == "late" and book["bob"]["late_days"] == "2"  # no extension
    assert canvas_scores(made["out"]) == {"ADA": "18", "BOB": "18", "CY": "18"}


def test_late_days_run_out_mid_term(tmp_path):
    """hw1 is 2 days late (2 of 3 days spent); hw2 is 2 days late: 1 day covers one, the
    other costs 10%."""
    first = grade(tmp_path, HW1, [case_results(HW1, "ada", "2026-03-03T20:00:00-05:00")])
    assert first["book"]["ada"]["late_days"] == "2" and first["book"]["ada"]["final"] == "18"
    assert [(r["student"], r["assignment"], r["days"], r["source"]) for r in ledger_rows(tmp_path)] \
        == [("ADA", HW1, "2", "auto")]
    second = grade(tmp_path, HW2, [case_results(HW2, "ada", "2026-03-17T20:00:00-04:00")])
    ada = second["book"]["ada"]
    assert (ada["late_days"], ada["total"], ada["penalty"], ada["final"]) == ("1", "26", "2.6",
                                                                            "23.4")
    assert "1 late day used, 0 left; 10% per started day (1 started day) → −2.6 points; " \
        "final 23.4 / 26." in feedback_line(second["out"], "ada")
    assert [(r["assignment"], r["days"]) for r in ledger_rows(tmp_path)] == [(HW1, "2"), (HW2, "1")]


def test_late_days_follow_the_due_dates_not_the_order_of_grading(tmp_path):
    """hw2 graded first spends 2 days; hw1, due earlier, still has all 3 to draw on, and
    the student now over the budget is named for the instructor."""
    grade(tmp_path, HW2, [case_results(HW2, "ada", "2026-03-17T20:00:00-04:00")])
    made = grade(tmp_path, HW1, [case_results(HW1, "ada", "2026-03-04T20:00:00-05:00")])
    assert made["book"]["ada"]["late_days"] == "3" and made["book"]["ada"]["final"] == "18"
    assert any(line.startswith("warning: late days: 1 of the students graded have more than 3 ")
               and line.endswith(": ada (5)") for line in made["lines"]), made["lines"]


def test_rerun_keeps_the_instructors_edits(tmp_path):
    """A re-run recomputes only the grader's own rows of that assignment: an edited row
    (source still "auto"), an added row and a row of a student not graded again stay
    byte for byte; the grader's rows stay in place, so a re-run changes nothing."""
    results = [case_results(HW1, name, "2026-03-03T20:00:00-05:00") for name in ("ada", "bob", "cy")]
    grade(tmp_path, HW1, results)
    ledger = tmp_path / "late_days.csv"
    once = ledger.read_text()
    grade(tmp_path, HW1, results)
    assert ledger.read_text() == once  # idempotent, in place
    edited = once.replace("BOB,Bob,hw1_attention,2,auto", "BOB,Bob,hw1_attention,0,auto")
    edited += "DEE,Dee,hw2_positions_params,1,instructor,gave one back by hand,\n"
    ledger.write_text(edited)
    made = grade(tmp_path, HW1, results[:2])  # a regrade of ada and bob only
    assert ledger.read_text() == edited
    bob = made["book"]["bob"]
    assert (bob["late_days"], bob["final"]) == ("", "14.4")  # the instructor's 0 days count
    assert "0 late days set in the ledger" in bob["policy"]
    assert [r["student"] for r in ledger_rows(tmp_path)] == ["ADA", "BOB", "CY", "DEE"]


def test_an_instructor_row_with_another_source_fixes_the_days(tmp_path):
    (tmp_path / "late_days.csv").write_text(
        "student,assignment,days,note\nada,hw1_attention,1,only one: late-day abuse\n")
    made = grade(tmp_path, HW1, [case_results(HW1, "ada", "2026-03-03T20:00:00-05:00")])
    assert (made["book"]["ada"]["late_days"], made["book"]["ada"]["final"]) == ("1", "16.2")
    assert ledger_rows(tmp_path) == [{"student": "ada", "name": "", "assignment": HW1,
                                      "days": "1", "source": "", "note": "only one: late-day abuse",
                                      "check": ""}]


def test_an_excused_student_gets_no_score(tmp_path):
    made = grade(tmp_path, HW1, [case_results(HW1, "ada", "2026-03-09T20:00:00-05:00"),
                                 case_results(HW1, "bob", "2026-03-01T20:00:00-05:00")],
                 accommodations_csv=NO_ACCOMMODATIONS + "ADA,,,,yes,leave of absence\n")
    ada = made["book"]["ada"]
    assert (ada["status"], ada["final"], ada["late_days"]) == ("excused", "", "")
    assert canvas_scores(made["out"])["ADA"] == "EX"  # Canvas's excused
    assert "Excused from this assignment" in feedback_line(made["out"], "ada")
    assert not (tmp_path / "late_days.csv").read_text().count("ADA")
    found = accommodations.read(tmp_path / "accommodations.csv", NY)
    assert accommodations.excused_ids(found, HW1) == {"ada"}


def test_each_member_of_a_group_spends_their_own_late_days(tmp_path):
    """One group submission a day late: Ada has no late day left (the ledger says so), Bob
    has three. Each has their own row and final score, and the feedback says both."""
    (tmp_path / "late_days.csv").write_text(
        "student,assignment,days,source\nada@uni.edu,hw1_attention,3,instructor\n")
    group = case_results(HW2, "submission_7", "2026-03-16T20:00:00-04:00")
    group.metadata["users"] = [{"name": "Ada", "sid": "", "email": "ada@uni.edu"},
                               {"name": "Bob", "sid": "s2", "email": "bob@uni.edu"}]
    made = grade(tmp_path, HW2, [group])
    with open(made["out"] / "gradebook.csv", newline="") as f:
        rows = {row["student"]: row for row in csv.DictReader(f)}
    assert (rows["Ada"]["late_days"], rows["Ada"]["final"]) == ("", "23.4")
    assert (rows["Bob"]["late_days"], rows["Bob"]["final"]) == ("1", "26")
    lines = (made["out"] / "submission_7" / "feedback.md").read_text().splitlines()
    assert lines[4].startswith("Ada: Submitted 20 h 1 min late") and "−2.6 points" in lines[4]
    assert lines[5].startswith("Bob: Submitted 20 h 1 min late") and "1 late day used" in lines[5]
    assert [(r["student"], r["days"]) for r in ledger_rows(tmp_path)] == [
        ("ada@uni.edu", "3"), ("s2", "1")]
    on_time_ada = case_results(HW2, "submission_7", "2026-03-16T20:00:00-04:00")
    on_time_ada.metadata["users"] = [
        {"name": "Ada", "email": "ada@uni.edu",
         "assignment": {"due_date": "2026-03-17T23:59:00-04:00"}},  # her Gradescope extension
        {"name": "Bob", "email": "bob@uni.edu"}]
    lines = (grade(tmp_path, HW2, [on_time_ada])["out"] / "submission_7" / "feedback.md") \
        .read_text().splitlines()
    assert lines[4].startswith("Ada: Submitted by your extended due date")
    assert lines[5].startswith("Bob: Submitted 20 h 1 min late")


def test_a_roster_joins_the_identifiers_of_a_student(tmp_path):
    """The accommodation names the student's login, the submission their sid: the roster
    row holds both, so the extension applies; the ledger names them by SIS User ID."""
    (tmp_path / "roster.csv").write_text("Student,ID,SIS User ID,SIS Login ID,Section\n"
                                         "Ada L,101,s01,alovelace,A\nBo K,102,s02,bok,A\n")
    (tmp_path / "course.toml").write_text(COURSE)
    (tmp_path / "accommodations.csv").write_text(NO_ACCOMMODATIONS + "alovelace,,,1,,\n")
    late = [case_results(HW1, name, "2026-03-02T20:00:00-05:00", sid=sid)
            for name, sid in (("ada", "s01"), ("bo", "s02"))]
    out = tmp_path / "out"
    prepared = report_run.prepare(out, tmp_path / "roster.csv", None, tmp_path / "course.toml", HW1)
    report_run.write_all(batch_mod.Batch(assignment_mod.load(HW1), out, results=late,
                                         submissions=tmp_path), prepared)
    with open(out / "gradebook.csv", newline="") as f:
        book = {row["student"]: row for row in csv.DictReader(f)}
    assert book["Ada L"]["status"] == "graded" and "1 extra day" in book["Ada L"]["policy"]
    assert book["Bo K"]["late_days"] == "1"
    assert [r["student"] for r in ledger_rows(tmp_path)] == ["s02"]


def test_a_canvas_late_mark_without_a_time_costs_nothing(tmp_path):
    canvas = SubmissionResult("lovelaceada_1001", HW1, metadata={
        "lms": "canvas", "late": True, "users": [{"name": "lovelaceada", "canvas_user_id": "1001"}]})
    made = grade(tmp_path, HW1, [canvas])
    row = made["book"]["lovelaceada_1001"]
    assert (row["status"], row["late_by"], row["penalty"]) == ("late", "recorded late by Canvas", "0")
    assert "time unknown: no penalty computed" in row["policy"]


def test_a_fault_of_the_policy_on_one_row_leaves_its_final_blank(tmp_path, monkeypatch):
    """Never the raw score in canvas.csv in place of a final one the grader failed to make."""
    made_outcome = penalties._outcome

    def broken(row, *args):
        if row.result.submission == "bob":
            raise KeyError("a fault of the grader")
        return made_outcome(row, *args)
    monkeypatch.setattr(penalties, "_outcome", broken)
    made = grade(tmp_path, HW1, [case_results(HW1, name, "2026-03-02T20:00:00-05:00")
                                 for name in ("ada", "bob")])
    assert (made["book"]["bob"]["final"], made["book"]["ada"]["final"]) == ("", "18")
    assert "the course policy could not be applied (KeyError" in made["book"]["bob"]["policy"]
    assert canvas_scores(made["out"]) == {"ADA": "18", "BOB": ""}


# --- mistakes stop grade before it grades, with the line -----------------------------------

@pytest.mark.parametrize("change, says", [
    (("2026-03-01T23:59", "2026-03-32T23:59"), "line 12: due: '2026-03-32T23:59' is not a date"),
    (("[assignments.hw2_positions_params]", "[assignments.hw9]"),
     "line 14: unknown assignment 'hw9'"),
    (("penalty_percent = 10", "penalty_percent = -5"),
     "line 7: penalty_percent: must be a number from 0 to 100, got -5"),
    (('per = "day"', 'per = "week"'), "line 8: per: must be one of 'day', 'hour'"),
    (('timezone = "America/New_York"', 'timezone = "Mars/Olympus"'),
     "line 2: 'Mars/Olympus' is not a time zone"),
    (("mode =", "modus ="), "line 9: unknown key 'modus'"),
    (("late_days = 3", "late_days = -1"), "line 3: late_days must be a whole number"),
    (("[defaults]", "[defaults\n"), "is not valid TOML"),
])
def test_policy_mistakes_name_their_line(capsys, tmp_path, change, says):
    (tmp_path / "course.toml").write_text(COURSE.replace(*change, 1))
    (tmp_path / "accommodations.csv").write_text(NO_ACCOMMODATIONS)
    assert_refused(capsys, tmp_path, says)


@pytest.mark.parametrize("file, text, says", [
    ("accommodations.csv", NO_ACCOMMODATIONS + "ada,hw1_attention,friday,,,\n",
     "accommodations.csv, line 2: due: 'friday' is not a date"),
    ("accommodations.csv", NO_ACCOMMODATIONS + "ada,hw1_attention,,,,\nbob,hw7,,1,,\n",
     "line 2: give exactly one of due, extra_days and excused"),
    ("accommodations.csv", NO_ACCOMMODATIONS + "ada,hw7,,1,,\n", "line 2: unknown assignment"),
    ("late_days.csv", "student,assignment,days\nada,hw1_attention,1\nbob,hw1_attention,-2\n",
     "late_days.csv, line 3: days must be a whole number of 0 or more, got '-2'"),
])
def test_mistakes_in_the_policys_files_name_their_line(capsys, tmp_path, file, text, says):
    (tmp_path / "course.toml").write_text(COURSE)
    (tmp_path / "accommodations.csv").write_text(NO_ACCOMMODATIONS)
    (tmp_path / file).write_text(text)
    assert_refused(capsys, tmp_path, says)


def assert_refused(capsys, root: Path, says: str) -> None:
    subs = root / "subs"
    subs.mkdir()
    (subs / "ada.ipynb").write_text("{}")
    code = cli.main(["grade", str(subs), "--assignment", HW1, "--out", str(root / "out"),
                     "--policy", str(root / "course.toml")])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("error: ") and says in err, err
    assert not (root / "out" / "grades.csv").exists()


def test_dates_with_an_offset_or_a_named_zone():
    zone = ZoneInfo("Europe/Paris")
    assert policy_file.parse_due("2026-03-01T23:59", NY) == datetime(2026, 3, 1, 23, 59,
                                                                     tzinfo=NY)
    assert policy_file.parse_due("2026-03-01T23:59 Europe/Paris", NY).utcoffset() == \
        zone.utcoffset(datetime(2026, 3, 1))
    assert policy_file.parse_due("2026-03-02T04:59:00+00:00", None) == \
        datetime(2026, 3, 1, 23, 59, tzinfo=NY).astimezone(timezone.utc)
    with pytest.raises(ValueError, match="both an offset and a time zone"):
        policy_file.parse_due("2026-03-01T23:59+01:00 Europe/Paris", None)
    assert policy_file.parse_duration("1 d 12 h") == 36 * 3600
    with pytest.raises(ValueError, match="is not a duration"):
        policy_file.parse_duration("soon")


def test_a_ledger_row_the_grader_wrote_is_told_from_an_edited_one():
    ours = late_days.entry("=s01", "Ada", HW1, 2, "submitted 1 d late")
    assert ours.ours and ours.cells["student"] == "'=s01" and ours.key == "=s01"
    edited = late_days.Entry({**ours.cells, "days": "1"})
    assert not edited.ours
    ledger = late_days.Ledger(Path("x.csv"), [edited])
    assert ledger.fixed({"=s01"}, HW1) == 1 and ledger.spent({"=s01"}, lambda a: a == HW1) == 1


def test_without_a_policy_nothing_changes():
    rows, applied = penalties.apply([], HW1, None, None)
    assert rows == [] and applied.ledger is None and applied.lines == []
