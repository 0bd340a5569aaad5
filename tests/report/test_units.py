"""The report modules on hand-made results: fast, no grading (the course's
rules they read, roster and lateness: tests/course/test_units.py)."""
from __future__ import annotations

import json

import pytest

from autograder.engine.results import SubmissionResult, to_gradescope
from autograder.engine.results import TestResult as Case  # not collected by pytest
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
