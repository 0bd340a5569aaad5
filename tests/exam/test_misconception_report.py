"""The exam's misconceptions per variant: how many students of each variant of a
question had feedback naming each known mistake, on the difficulty page and in
report.html (exam/reports.py), a variant with none saying so."""
from __future__ import annotations

import html
import re
from types import SimpleNamespace

from autograder.engine import assignment as assignment_mod
from autograder.engine import results as res
from autograder.exam import reports
from autograder.exam_midterm import reference as ref

A = assignment_mod.load("exam_midterm")
MISTAKES = {d.mistake.__name__: d for ds in A.diagnoses.values() for d in ds}
SHAPE = MISTAKES["shape_source_first"]
NO_SHIFT, LOG_SOFTMAX = MISTAKES["perplexity_no_shift"], MISTAKES["perplexity_log_of_softmax"]


def _result(name, variants, *named, error=None):
    """A graded submission whose tests named these diagnoses, on these variants."""
    tests = [res.TestResult(d.question, f"test_{i}", "t", 0.0, 1.0, "differs", "hidden",
                            diagnosis=d.text()) for i, d in enumerate(named)]
    tests.append(res.TestResult("identity", "test_id", "t", 1.0, 1.0, "passed", "hidden"))
    return res.SubmissionResult(name, "exam_midterm", tests=tests, error=error,
                                annotations={"exam": {"variants": variants}})


RESULTS = [
    _result("s1", {"cross_attention_shape": 2, "perplexity": 0}, SHAPE, NO_SHIFT, NO_SHIFT),
    _result("s2", {"cross_attention_shape": 2, "perplexity": 5}, SHAPE, LOG_SOFTMAX),
    _result("s3", {"cross_attention_shape": 7, "perplexity": 0}, NO_SHIFT),
    _result("s4", {"cross_attention_shape": 7, "perplexity": 5, "key_padding_mask": 3}),
    _result("s5", {"cross_attention_shape": 9, "perplexity": 0}),
    _result("s6", {"cross_attention_shape": 9}, error="not a notebook"),  # counts nowhere
]


def test_counted_per_variant_of_its_own_students():
    rows = reports.misconceptions_per_variant(RESULTS, A.diagnoses, A.questions)
    assert [(n.question, n.group, n.explanation, n.students, n.graded) for n in rows] == [
        ("cross_attention_shape", 2, SHAPE.explanation, 2, 2),
        ("perplexity", 0, NO_SHIFT.explanation, 2, 3),  # s1's two tests count once
        ("perplexity", 5, LOG_SOFTMAX.explanation, 1, 2)]
    assert {n.section for n in rows} == {SHAPE.section, NO_SHIFT.section}


def _rows(page: str, question: str) -> list[str]:
    """The text of each row of the question's per-variant table (after the difficulty's)."""
    part = page[page.index("Misconceptions to reteach, per variant"):]
    part = part[part.index(f"<h3>{question}</h3>"):]
    part = part[:part.index("</table>")]
    return [re.sub(r"<[^>]+>", "|", html.unescape(r)) for r in part.split("<tr>")[2:]]


def test_the_class_report_shows_each_variant_seen_and_none_where_none():
    batch = SimpleNamespace(assignment=A, results=RESULTS)
    page = "\n".join(reports.class_report_section(batch))
    assert "Misconceptions to reteach, per variant" in page
    shape = _rows(page, "cross_attention_shape")
    assert len(shape) == 3, shape
    assert shape[0].startswith("|2|") and "2 of 2" in shape[0] and SHAPE.section in shape[0]
    assert "n_src=10" in shape[0]  # the variant's numbers, from the public table
    for row, v, graded in zip(shape[1:], (7, 9), (2, 1)):  # seen, nothing named: none
        assert row.startswith(f"|{v}|") and "none named" in row and f"0 of {graded}" in row, row
    perplexity = _rows(page, "perplexity")
    assert [r.split("|")[1] for r in perplexity] == ["0", "5"]
    assert "2 of 3" in perplexity[0] and "1 of 2" in perplexity[1]
    assert LOG_SOFTMAX.explanation in perplexity[1] and NO_SHIFT.explanation not in perplexity[1]
    # a question with diagnoses but no variant seen, or no question named: no table
    named = page[page.index("Misconceptions to reteach, per variant"):]
    assert "<h3>encoder_params</h3>" not in named and "<h3>identity</h3>" not in named
    assert "variant of: key_padding_mask." in named  # seen, with diagnoses, none named


def test_the_difficulty_page_ranks_the_whole_exam_first():
    rows = reports.difficulty(RESULTS, A.questions, {q: A.config.max_points(q) for q in A.questions})
    named = reports.misconception_sections(RESULTS, A.diagnoses, A.questions, ref, whole=True)
    page = reports.difficulty_html(rows, ref, "Midterm", named)
    whole = page[page.index("<h3>The whole exam</h3>"):page.index("<h3>cross_attention_shape")]
    assert whole.count("<tr>") == 1 + 3  # header, then one row per (question, mistake)
    assert "3 of 5" not in whole and "2 of 5" in whole and "1 of 5" in whole
    assert page.index("Hardest variant") < page.index("<h3>The whole exam</h3>")


def test_nothing_named_shows_no_table_and_no_diagnoses_no_section():
    plain = [_result("s1", {"perplexity": 0}), _result("s2", {"key_padding_mask": 3})]
    page = "\n".join(reports.misconception_sections(plain, A.diagnoses, A.questions, ref))
    assert "No known mistake was named in any variant of: key_padding_mask, perplexity." \
        in page and "<table>" not in page and "<h3>" not in page
    assert reports.misconception_sections(RESULTS, {}, A.questions, ref) == []
