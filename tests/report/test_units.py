"""The report modules on hand-made results: fast, no grading."""
from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

from autograder.engine.results import SubmissionResult, to_gradescope
from autograder.engine.results import TestResult as Case  # not collected by pytest
from autograder.course import lateness, roster
from autograder.report import feedback, gradebook, problems, regrade, stats

CTX = feedback.Context("Demo", ["q1", "q2"], {"q1": 3.0, "q2": 1.0})


def result(sub: str, scores: dict[str, float], **kw) -> SubmissionResult:
    """q1 has tests a (1 point) and b (2 points), q2 has test c (1 point, hidden)."""
    maxima = {"a": 1.0, "b": 2.0, "c": 1.0}
    tests = [Case("q1" if n in "ab" else "q2", f"test_{n}", f"checks {n}",
                        scores.get(n, maxima[n]), maxima[n],
                        "passed" if scores.get(n, maxima[n]) == maxima[n] else f"{n} differs",
                        "hidden" if n == "c" else "after_published")
             for n in "abc"]
    return SubmissionResult(sub, "demo", tests=tests, **kw)


def test_hidden_tests_show_points_only():
    """Does a hidden test's title or message stay out of the feedback?"""
    r = result("x", {"b": 0.0, "c": 0.0})
    for text in (feedback.markdown(r, CTX), feedback.html(r, CTX)):
        assert "checks c" not in text and "c differs" not in text
        assert "a hidden test: 0 / 1" in text
        assert "checks b" in text and "b differs" in text


def test_partial_credit_is_called_partial():
    r = result("x", {"b": 1.0})
    assert "**partial** (1 / 2): checks b" in feedback.markdown(r, CTX)


def test_a_diagnosis_of_two_mistakes_shows_each_on_its_own():
    """A combined diagnosis (a line per mistake) is a paragraph per mistake, escaped."""
    r = result("x", {"b": 0.0})
    r.tests[1].diagnosis = "This looks like: x (see P1)\nThis looks like: <y> (see P2)"
    md, html = feedback.markdown(r, CTX), feedback.html(r, CTX)
    assert "  This looks like: x (see P1)\n\n  This looks like: \\<y\\> (see P2)\n" in md
    assert "<p>This looks like: x (see P1)</p><p>This looks like: &lt;y&gt; (see P2)</p>" in html


def test_fence_cannot_be_closed_by_the_message():
    text = "a ```` b"
    fenced = feedback._fence(text)
    assert fenced.startswith("`````\n") and fenced.endswith("\n`````")


def test_status_line_in_feedback():
    r = result("x", {})
    md = feedback.markdown(r, CTX, "Submitted 2 h 5 min after the due date.")
    assert "Submitted 2 h 5 min after the due date." in md


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


def test_gradebook_without_roster_keys_canvas_by_submission():
    rows = [gradebook.Row(None, result("ann", {"a": 0.0}), None, ""),
            gradebook.Row(None, result("bob", {}, error="no notebook"), None, "")]
    canvas = gradebook.canvas_csv(rows, "Demo", 4.0).splitlines()
    assert canvas[2] == "ann,,,ann,,3"
    book = gradebook.gradebook_csv(rows, 4.0).splitlines()
    assert book[1].startswith("ann,,ann,graded,,3,4,75.0,")
    assert "bob,,bob,not graded,," in book[2] and book[2].endswith("no notebook")


def test_problem_kinds():
    r = result("x", {"a": 0.0})
    r.notes = ["code cell 2 was stopped: the notebook's cells may run 5 s in all; ...",
               "code cell 3 raised MemoryError: ", "code cell 4 raised KeyError: 'k'",
               "code cell 5 ended the notebook's process; it is left out"]
    r.tests[0].output = "timed out: causal_mask(3) took longer than 10 s"
    r.tests[0].stopped = "time limit"  # as the runner records a test that timed out
    kinds = [p.kind for p in problems.of_result(r)]
    assert kinds == ["time limit", "memory limit", "cell error", "crashed", "time limit"]
    broken = result("y", {}, error="no .ipynb notebook found in the submission")
    assert [p.kind for p in problems.of_result(broken)] == ["not graded"]


def test_pass_rates_and_common_failure():
    rs = [result("a", {"b": 0.0}), result("b", {"b": 0.0}), result("c", {}),
          result("d", {}, error="unreadable")]
    by_title = {t.title: t for t in stats.per_test(rs)}
    assert (by_title["checks b"].passed, by_title["checks b"].graded) == (1, 3)
    assert by_title["checks b"].common_failure == "b differs" and by_title["checks b"].common_count == 2
    assert stats.blank_numbers("f(3): 2 of 4 differ; yours is np.float64(0.5)") == \
        "f(#): # of # differ; yours is np.float64(#)"


def test_regrade_diff_explains_changes(tmp_path):
    """Does the diff name the test whose status changed and the amount?"""
    before = result("ann", {"b": 0.0})
    (tmp_path / "ann").mkdir()
    (tmp_path / "ann" / "results.json").write_text(json.dumps(to_gradescope(before)))
    (tmp_path / "junk").mkdir()
    (tmp_path / "junk" / "results.json").write_text("{not json")
    previous = regrade.snapshot(tmp_path)
    assert list(previous) == ["ann"]
    changes = regrade.diff(previous, [result("ann", {})])
    assert len(changes) == 1 and changes[0].delta == 2.0
    assert changes[0].reasons == ["q1: checks b: failed 0/2 -> passed 2/2"]
    assert regrade.diff(previous, [before]) == []
    assert regrade.snapshot(tmp_path / "nothing") == {}


def test_markdown_escapes_titles():
    r = SubmissionResult("x", "demo", tests=[Case("q1", "t", "n < 1 | *bold*", 0.0, 1.0,
                                                        "msg", "visible")])
    md = feedback.markdown(r, feedback.Context("D", ["q1"], {"q1": 1.0}))
    assert "n \\< 1 \\| \\*bold\\*" in md


def test_ungradable_submission_states_its_reason_once():
    r = result("x", {"a": 0.0, "b": 0.0, "c": 0.0}, error="no .ipynb notebook found")
    for t in r.tests:
        t.output = f"not graded: {r.error}"
    r.notes = [r.error]
    md = feedback.markdown(r, CTX)
    assert md.count("no .ipynb notebook found") == 1 and "**failed** (0 / 2): checks b" in md


@pytest.mark.parametrize("many", [False, True])
def test_the_runtime_plot_is_scaled_to_the_data(monkeypatch, many):
    """Do 0.1-0.3 s runtimes fill the axis beside a 60 s limit (the limit then
    named in the label, not drawn far to the right), bars and histogram alike,
    while a submission near the limit is shown against its line?"""
    from autograder.report import plots
    figures = []
    monkeypatch.setattr(plots, "_data_uri", figures.append)
    n = 50 if many else 3
    fast = [(f"s{i}", 0.1 + 0.2 * i / n) for i in range(n)]
    plots.runtimes(fast, 60.0)
    plots.runtimes(fast + [("slow", 58.0)], 60.0)
    try:
        (quick,), (near,) = (fig.axes for fig in figures)
        slowest = max(s for _, s in fast)  # under 0.3 s
        assert quick.get_xlim() == pytest.approx((0, 1.1 * slowest))
        assert "the notebook limit, 60 s, is beyond the slowest" in quick.get_xlabel()
        assert not [line for line in quick.get_lines() if line.get_xdata()[0] == 60.0]
        assert near.get_xlim()[1] >= 60.0
        assert [line for line in near.get_lines() if line.get_xdata()[0] == 60.0]
    finally:
        import matplotlib.pyplot as plt
        for fig in figures:
            plt.close(fig)
