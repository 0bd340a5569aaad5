"""The course's rules on hand-made results: the roster's matching and each
submission's lateness. Fast, no grading."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from autograder.course import lateness, roster
from autograder.engine.results import SubmissionResult
from autograder.report import gradebook
from tests.report.test_units import result


def gradescope(sub: str, score_b: float = 2.0, **user) -> SubmissionResult:
    return result(sub, {"b": score_b}, metadata={"users": [user]})


def roster_of(tmp_path, rows: str) -> list[roster.RosterStudent]:
    path = tmp_path / "roster.csv"
    path.write_text("\ufeffStudent,ID,SIS User ID,SIS Login ID,Section\nPoints Possible,,,,\n"
                    + rows)
    return roster.read(path).students


def matched(matching: roster.Matching) -> list[tuple[str, str | None]]:
    return [(s.label, r.submission if r else None) for s, r in matching.pairs]


def test_roster_from_canvas_export_and_gradescope_metadata(tmp_path):
    """Does a Canvas export match a file by its name, a Gradescope submitter by sid or
    by whole e-mail, a Canvas download by Canvas's user id, each on its own columns?"""
    students = roster_of(tmp_path, "Ada L,1,s1,ada,A\nBo K,2,s2,bok@uni.edu,B\n"
                                   "Cy N,3,s3,cy,B\nDi O,4,s4,di,A\n")
    assert [s.label for s in students] == ["Ada L", "Bo K", "Cy N", "Di O"]
    results = [result("ADA", {}), gradescope("submission_991", email="BOK@uni.edu", sid="x"),
               gradescope("submission_992", sid="s3"),
               result("diamond_4_77_hw.ipynb", {}, metadata={
                   "lms": "canvas", "users": [{"name": "diamond", "canvas_user_id": "4"}]}),
               result("stranger", {}), result("cy", {}, metadata={"users": [{"name": "Cy"}]})]
    matching = roster.match(students, results)
    assert matched(matching) == [("Ada L", "ADA"), ("Bo K", "submission_991"),
                                 ("Cy N", "submission_992"), ("Di O", "diamond_4_77_hw.ipynb")]
    # a platform that names a user without an identifier: the folder's name does not count
    assert [r.submission for r in matching.unclaimed] == ["stranger", "cy"]
    assert matching.unclear_rows == {} and matching.unclear_submissions == {}


def test_a_borrowed_local_part_gets_no_roster_row(tmp_path):
    """Mallory sets her Gradescope e-mail to ada@evil.example (Ada's login is ada):
    Ada's row keeps Ada's own score, and an e-mail that matches a login only by its
    part before the @ is reported, never taken."""
    students = roster_of(tmp_path, "Ada L,1,s01,ada,A\nMallory M,3,s03,mallory,B\n")
    ada = gradescope("submission_1", score_b=0.0, sid="s01", email="ada@uni.edu")
    mallory = gradescope("submission_3", sid="s03", email="ada@evil.example")
    no_sid = gradescope("submission_4", email="ada@evil.example", name="Eve")
    matching = roster.match(students, [ada, mallory, no_sid])
    assert matched(matching) == [("Ada L", "submission_1"), ("Mallory M", "submission_3")]
    assert [r.submission for r in matching.unclaimed] == ["submission_4"]
    assert "only by the part before the @" in matching.unclear_submissions["submission_4"]
    assert "Ada L" in matching.unclear_submissions["submission_4"]


def test_ambiguous_matches_are_reported_never_guessed(tmp_path):
    """Two submissions naming one row (s2002.ipynb and s2002.zip), and a submitter whose
    sid names one row and e-mail another: nobody gets a score they may not own."""
    students = roster_of(tmp_path, "Ada L,1,s2002,ada,A\nBo K,2,s2,bok@uni.edu,B\n"
                                   "Cy N,3,s3,cy,B\n")
    twice = [result("s2002.ipynb", {}, submitter="s2002"),
             result("s2002.zip", {"a": 0.0}, submitter="s2002")]
    torn = gradescope("submission_9", sid="s3", email="bok@uni.edu")
    matching = roster.match(students, [*twice, torn])
    assert matched(matching) == [("Ada L", None), ("Bo K", None), ("Cy N", None)]
    assert "2 submissions match this roster row (s2002.ipynb, s2002.zip)" in \
        matching.unclear_rows[0]
    assert "matches 2 roster rows (Bo K, Cy N)" in matching.unclear_submissions["submission_9"]
    rows = [gradebook.Row(s, r, None, "yes", problem=matching.unclear_rows.get(i, ""))
            for i, (s, r) in enumerate(matching.pairs)]
    book = gradebook.gradebook_csv(rows, 4.0).splitlines()
    assert book[1].startswith("Ada L,A,,ambiguous,yes,") and "none is put in canvas.csv" in book[1]
    assert gradebook.canvas_csv(rows, "Demo", 4.0).splitlines()[2] == "Ada L,1,s2002,ada,A,"


def test_roster_without_identifier_column(tmp_path):
    path = tmp_path / "roster.csv"
    path.write_text("name,grade\nAda,3\n")
    with pytest.raises(roster.RosterError, match="no identifier column"):
        roster.read(path)


def test_lateness_from_metadata_and_due():
    due = datetime(2026, 3, 1, 23, 59, tzinfo=timezone.utc)
    meta = {"created_at": "2026-03-04T01:59:00+00:00", "assignment": {"due_date": None}}
    t = lateness.timing(result("x", {}, metadata=meta), None, due)
    assert t.late and lateness.duration(t.late_seconds) == "2 d 2 h"
    on_time = lateness.timing(result("y", {}, metadata={
        "created_at": "2026-03-01T10:00:00+00:00",
        "assignment": {"due_date": "2026-03-01T23:59:00+00:00"}}), None, None)
    assert not on_time.late and on_time.source == "gradescope"
    assert lateness.timing(result("z", {}), None, None).submitted is None  # no due: no guess


def test_a_submitters_own_due_date_counts_before_the_assignments():
    """Gradescope puts an extension in users[].assignment.due_date; for a group,
    the latest member's counts; without one, the assignment's."""
    assignment = {"due_date": "2026-03-01T23:59:00+00:00"}
    late = {"created_at": "2026-03-03T10:00:00+00:00", "assignment": assignment}
    assert lateness.timing(result("x", {}, metadata=late), None, None).late
    extended = {**late, "users": [
        {"name": "Ada", "assignment": {"due_date": "2026-03-02T23:59:00+00:00"}},
        {"name": "Bob", "assignment": {"due_date": "2026-03-04T23:59:00+00:00"}}]}
    t = lateness.timing(result("y", {}, metadata=extended), None, None)
    assert not t.late and t.due == datetime(2026, 3, 4, 23, 59, tzinfo=timezone.utc)
    ada_only = {**late, "users": [extended["users"][0], {"name": "Cy"}]}
    assert lateness.timing(result("z", {}, metadata=ada_only), None, None).late
    assert lateness.metadata_due({"users": "not a list of users"}) is None


def test_parse_time_without_zone_is_local():
    assert lateness.parse_time("2026-03-01T23:59").tzinfo is not None
    with pytest.raises(ValueError, match="2026-03-01T23:59"):
        lateness.parse_time("next friday")
