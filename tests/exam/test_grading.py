"""Does the exam grade whole notebooks right through the real engine?

One batch of generated submissions: right answers under several identities
(local file names and Gradescope metadata), copied notebooks that claim
another identity, mistakes in each coding stub, free responses with hostile
text; then the reports the batch writes (free responses, identity flags,
difficulty per variant) and the demo submissions in examples/exam_midterm.
"""
from __future__ import annotations

import csv
import inspect
import json
import os
import shutil
import zipfile
from pathlib import Path
from types import SimpleNamespace

import nbformat
import pytest

from autograder import paths
from autograder.engine import assignment as assignment_mod
from autograder.engine.intake import kept_cells
from autograder.engine.intake.submissions import discover
from autograder.exam import free_response, variants
from autograder.exam_midterm import reference as ref
from tests.conftest import grade
from tests.exam.answers import right_answers

# Heavy (grades a batch of exams): the fast tier, -m 'not heavy', skips it.
pytestmark = pytest.mark.heavy

QUESTIONS = ["identity", "encoder_params", "cross_attention_shape", "mask_fraction",
             "chance_level", "key_padding_mask", "perplexity"]
MAX = {"identity": 1, "encoder_params": 3, "cross_attention_shape": 3, "mask_fraction": 3,
       "chance_level": 3, "key_padding_mask": 4, "perplexity": 4}
SHORT = ["encoder_params", "cross_attention_shape", "mask_fraction", "chance_level"]
HOSTILE = "<script>alert('x')</script> & <b>not bold</b>"


def answers_cell(sid: str) -> str:
    """The short answers for identity `sid`, as literals a student would type."""
    return "\n".join(f"{name} = {value!r}" for name, value in right_answers(sid).items())


CODE = "import numpy as np\n\n" + inspect.getsource(ref.key_padding_mask) + "\n\n" + \
    inspect.getsource(ref.perplexity)


def notebook(path: Path, claim: str, answers_for: str, extra: str = "",
             responses: tuple[str, str] = ("Because the target is hidden.", HOSTILE)) -> None:
    md = nbformat.v4.new_markdown_cell
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(f"STUDENT_ID = {claim!r}"),
                nbformat.v4.new_code_cell(answers_cell(answers_for)),
                nbformat.v4.new_code_cell(CODE),
                md("<!-- BEGIN QUESTION -->\n\n<!-- free response: fr_bidirectional -->\n**C1** Why?"),
                md(responses[0]),
                md("<!-- END QUESTION -->\n\n<!-- BEGIN QUESTION -->\n\n"
                   "<!-- free response: fr_variant_check -->\n**C2** Where? About $12\\,d_{model}^2$."),
                md(responses[1]),
                md("<!-- END QUESTION -->")]
    if extra:
        nb.cells.append(nbformat.v4.new_code_cell(extra))
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, str(path))


# Mistakes in the coding stubs: name -> (question, source redefining the stub).
BUGS = {
    "kpm_boolean": ("key_padding_mask", '''
def key_padding_mask(lengths, n_src):
    lengths = np.asarray(lengths)
    if lengths.min() < 1 or lengths.max() > n_src:
        raise ValueError("bad length")
    return np.arange(n_src)[None, :] >= lengths[:, None]
'''),
    "kpm_off_by_one": ("key_padding_mask", '''
def key_padding_mask(lengths, n_src):
    lengths = np.asarray(lengths)
    if lengths.min() < 1 or lengths.max() > n_src:
        raise ValueError("bad length")
    return np.where(np.arange(n_src)[None, :] > lengths[:, None], -np.inf, 0.0)
'''),
    "kpm_large_negative": ("key_padding_mask", '''
def key_padding_mask(lengths, n_src):
    lengths = np.asarray(lengths)
    if lengths.min() < 1 or lengths.max() > n_src:
        raise ValueError("bad length")
    return np.where(np.arange(n_src)[None, :] >= lengths[:, None], -1e9, 0.0)
'''),
    "kpm_transposed": ("key_padding_mask", '''
def key_padding_mask(lengths, n_src):
    lengths = np.asarray(lengths)
    if lengths.min() < 1 or lengths.max() > n_src:
        raise ValueError("bad length")
    return np.where(np.arange(n_src)[:, None] >= lengths[None, :], -np.inf, 0.0)
'''),
    "kpm_no_validation": ("key_padding_mask", '''
def key_padding_mask(lengths, n_src):
    lengths = np.asarray(lengths)
    return np.where(np.arange(n_src)[None, :] >= lengths[:, None], -np.inf, 0.0)
'''),
    "kpm_float32": ("key_padding_mask", '''
def key_padding_mask(lengths, n_src):
    lengths = np.asarray(lengths)
    if lengths.min() < 1 or lengths.max() > n_src:
        raise ValueError("bad length")
    return np.where(np.arange(n_src)[None, :] >= lengths[:, None], -np.inf, 0.0).astype(np.float32)
'''),
    "ppl_returns_loss": ("perplexity", '''
_right = perplexity
def perplexity(logits, labels, ignore_index=-100):
    return float(np.log(_right(logits, labels, ignore_index)))
'''),
    "ppl_counts_ignored": ("perplexity", '''
def perplexity(logits, labels, ignore_index=-100):
    logits, labels = np.asarray(logits, dtype=float), np.asarray(labels)
    if not (labels != ignore_index).any():
        raise ValueError("nothing to score")
    labels = np.where(labels == ignore_index, 0, labels)
    shifted = logits - logits.max(axis=1, keepdims=True)
    logp = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    return float(np.exp(-logp[np.arange(len(labels)), labels].mean()))
'''),
    "ppl_naive_softmax": ("perplexity", '''
def perplexity(logits, labels, ignore_index=-100):
    logits, labels = np.asarray(logits, dtype=float), np.asarray(labels)
    keep = labels != ignore_index
    if not keep.any():
        raise ValueError("nothing to score")
    p = np.exp(logits[keep]) / np.exp(logits[keep]).sum(axis=1, keepdims=True)
    return float(np.exp(-np.log(p[np.arange(keep.sum()), labels[keep]]).mean()))
'''),
    "ppl_mean_of_token_perplexities": ("perplexity", '''
def perplexity(logits, labels, ignore_index=-100):
    logits, labels = np.asarray(logits, dtype=float), np.asarray(labels)
    keep = labels != ignore_index
    if not keep.any():
        raise ValueError("nothing to score")
    rows = logits[keep]
    shifted = rows - rows.max(axis=1, keepdims=True)
    logp = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    return float(np.exp(-logp[np.arange(len(rows)), labels[keep]]).mean())
'''),
    "ppl_ignores_ignore_index": ("perplexity", '''
_right = perplexity
def perplexity(logits, labels, ignore_index=-100):
    return _right(logits, labels, -100)
'''),
    "ppl_no_value_error": ("perplexity", '''
_right = perplexity
def perplexity(logits, labels, ignore_index=-100):
    if not (np.asarray(labels) != ignore_index).any():
        return float("nan")
    return _right(logits, labels, ignore_index)
'''),
}

# Coding answers that only raise: rejecting bad input must not pay for that alone.
RAISES_EVERYWHERE = """
def key_padding_mask(lengths, n_src):
    raise ValueError("no answer")
def perplexity(logits, labels, ignore_index=-100):
    raise ValueError("no answer")
"""

# Claims that try to pass for the submitter without being its id.
ATTACKS = {
    "attack_str_subclass": '''
class Anyone(str):
    def __eq__(self, other): return True
    def __hash__(self): return 0
    def lower(self): return self
    def strip(self, *a): return self
    def split(self, *a): return [self]
STUDENT_ID = Anyone("s3001")
''',
    "attack_object": '''
class Anyone:
    def __eq__(self, other): return True
    def __str__(self): return "attack_object"
STUDENT_ID = Anyone()
''',
}

# A notebook hunting for the answer key and its neighbours' notebooks.
KEY_HUNT = """
import importlib
found = []
for path in {paths!r}:
    try:
        with open(path) as f:
            f.read(10)
        found.append(path)
    except OSError:
        pass
try:
    importlib.import_module("autograder.exam_midterm.reference")
    found.append("import")
except Exception:
    pass
print("LEAKED" if found else "nothing found", found)
"""

# Identities: the copier's numbers differ from the copied in every short answer.
COPIED, COPIER = "s3001", "s3003"
DEEP = 980


def _differs_everywhere(a, b):
    return all(variants.variant_index(ref.EXAM, q, a, 16) != variants.variant_index(ref.EXAM, q, b, 16)
               for q in SHORT)


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    """Grades every generated submission once: (results by id, out folder)."""
    assert _differs_everywhere(COPIED, COPIER)
    root = tmp_path_factory.mktemp("exam")
    subs = root / "subs"
    notebook(subs / "s3001.ipynb", "s3001", "s3001")
    notebook(subs / "S3002.ipynb", " s3002 ", "s3002")  # case and spaces do not matter
    notebook(subs / f"{COPIER}.ipynb", COPIED, COPIED)  # copied a neighbour's notebook
    notebook(subs / "unset.ipynb", "", "unset")
    # folders of a Gradescope export: its submission_metadata.yml names the users
    notebook(subs / "987654" / "exam_midterm.ipynb", "ADA@uni.edu", "ada@uni.edu")
    notebook(subs / "987655" / "exam_midterm.ipynb", "s3006", "s3006")
    (subs / "submission_metadata.yml").write_text(
        "'987654':\n  :submitters:\n  - :name: Ada\n    :sid: s3004\n    :email: ada@uni.edu\n"
        "'987655':\n  :submitters:\n  - :name: Bo\n    :sid: s3005\n    :email: bo@uni.edu\n")
    for name, (_, source) in BUGS.items():
        notebook(subs / f"{name}.ipynb", name, name, extra=source)
    notebook(subs / "raises_everywhere.ipynb", "raises_everywhere", "raises_everywhere",
             extra=RAISES_EVERYWHERE)
    for name, source in ATTACKS.items():
        notebook(subs / f"{name}.ipynb", COPIED, COPIED, extra=source)
    (subs / "broken.ipynb").write_text("this is not a notebook")
    secrets = [str(paths.PACKAGE / "exam_midterm" / "reference.py"),
               str(paths.CONFIG / "exam_midterm.toml"), str(subs.resolve() / "s3001.ipynb")]
    notebook(subs / "key_hunt.ipynb", "key_hunt", "key_hunt", extra=KEY_HUNT.format(paths=secrets))
    student = paths.ASSIGNMENTS / "exam_midterm" / "exam_midterm.ipynb"
    (subs / "untouched.ipynb").write_bytes(student.read_bytes())
    odd_notebooks(subs)
    out = root / "out"
    return grade("exam_midterm", subs, out, reports=True), out


def odd_notebooks(subs: Path) -> None:
    """Honest answers in JSON nested DEEP levels deep (parsed where grading reads it, and
    once a RecursionError where the reports read it again), and a notebook whose nbformat
    is text (once a TypeError in every exam report)."""
    notebook(subs / "deep_metadata.ipynb", "deep_metadata", "deep_metadata")
    text = (subs / "deep_metadata.ipynb").read_text()
    (subs / "deep_metadata.ipynb").write_text(text.replace(
        '"metadata": {}', '"metadata": {"x": %s%s}' % ("[" * DEEP, "]" * DEEP), 1))
    notebook(subs / "nbformat_text.ipynb", "nbformat_text", "nbformat_text")
    data = json.loads((subs / "nbformat_text.ipynb").read_text())
    (subs / "nbformat_text.ipynb").write_text(json.dumps({**data, "nbformat": "4"}))


def scores(result):
    return result.question_scores(QUESTIONS)


@pytest.mark.parametrize("sid", ["s3001", "S3002", "987654"])
def test_right_answers_of_the_submitter_get_full_marks(batch, sid):
    """Right answers for the submitter's own numbers: full marks (local id or Gradescope user)."""
    results, _ = batch
    failed = {t.name: t.output for t in results[sid].tests if t.status == "failed"}
    assert results[sid].score == sum(MAX.values()), failed


def test_copied_notebook_is_flagged_and_graded_with_the_copiers_numbers(batch):
    """A notebook claiming a neighbour: identity fails with a flag, short answers lose points."""
    results, _ = batch
    r = results[COPIER]
    s = scores(r)
    assert s["identity"] == 0
    assert r.notes[0].startswith("IDENTITY FLAG") and COPIED in r.notes[0]
    assert all(s[q] == 0.5 for q in SHORT), s  # only the format points
    assert s["key_padding_mask"] == 4 and s["perplexity"] == 4
    assert r.annotations["exam"]["identity"]["graded_as"] == COPIER


def test_gradescope_claim_of_another_user_is_flagged(batch):
    """On Gradescope the metadata's user counts, not the notebook's claim."""
    results, _ = batch
    r = results["987655"]
    assert scores(r)["identity"] == 0
    assert r.annotations["exam"]["identity"]["graded_as"] == "s3005"
    assert "s3006" in r.notes[0]


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_claims_that_are_not_plain_ids_are_flagged(batch, attack):
    """A str subclass equal to everything, or an object printing the right id, is no match."""
    results, _ = batch
    r = results[attack]
    assert scores(r)["identity"] == 0 and r.notes[0].startswith("IDENTITY FLAG")
    assert r.annotations["exam"]["identity"]["graded_as"] == attack


def test_unset_identity_is_flagged(batch):
    results, _ = batch
    r = results["unset"]
    assert scores(r)["identity"] == 0 and "not set" in r.notes[0]
    assert r.score == sum(MAX.values()) - 1  # graded against the file name, which is its id


def test_untouched_student_notebook_scores_zero(batch):
    results, _ = batch
    assert results["untouched"].score == 0


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("unshare"),
                    reason="the sandbox hides files only when grading as root")
def test_notebook_cannot_read_the_answer_key_or_neighbours(batch):
    """The reference, the config and other submissions are out of the notebook's sight."""
    results, _ = batch
    out = results["key_hunt"].notebook_output
    assert "nothing found" in out and "LEAKED" not in out, out[-500:]


def test_unreadable_upload_is_not_an_identity_flag(batch):
    """A broken upload scores 0 with its reason; its page says so, the flags list omits it."""
    results, out = batch
    assert results["broken"].error and results["broken"].score == 0
    assert "not graded" in (out / "broken" / "free_response.html").read_text()


@pytest.mark.parametrize("bug", sorted(BUGS))
def test_coding_mistake_loses_points_on_its_question_only(batch, bug):
    results, _ = batch
    question = BUGS[bug][0]
    s = scores(results[bug])
    assert s[question] < MAX[question], f"{bug} got full marks"
    others = {q: v for q, v in s.items() if q != question and v < MAX[q]}
    assert not others, f"{bug} also lost {others}"


def test_coding_answers_that_only_raise_score_zero(batch):
    """Every coding answer raises ValueError: its questions score 0, rejection tests included."""
    results, _ = batch
    s = scores(results["raises_everywhere"])
    assert s["key_padding_mask"] == 0 and s["perplexity"] == 0, s


@pytest.mark.browser
def test_free_responses_are_collected_per_student_and_escaped(batch):
    """One HTML per submission and one combined, the student's HTML shown as text."""
    results, out = batch
    combined = (out / "free_responses.html").read_text()
    for sid in results:
        page = (out / sid / "free_response.html").read_text()
        assert "fr_bidirectional" in page and "fr_variant_check" in page
    one = (out / "s3001" / "free_response.html").read_text()
    assert "Because the target is hidden." in one
    assert "<script>alert" not in combined and "&lt;script&gt;alert(&#x27;x&#x27;)" in one
    assert "Content-Security-Policy" in combined
    assert "d_model=" in one  # the student's numbers, for the grader of free responses
    # the prompt's Markdown is rendered, its math kept as TeX source
    assert "<strong>C2</strong> Where?" in one and "**C2**" not in one
    assert '<span class="math">$12\\,d_{model}^2$</span>' in one
    assert combined.count('<section class="student">') == len(results)
    assert "(no answer)" in (out / "untouched" / "free_response.html").read_text()
    if any(shutil.which(b) for b in ("chromium", "chromium-browser", "google-chrome")):
        assert (out / "free_responses.pdf").read_bytes()[:5] == b"%PDF-"


def test_identity_flags_and_difficulty_reports(batch):
    results, out = batch
    with open(out / "identity_flags.csv") as f:
        flagged = {row["submission"] for row in csv.DictReader(f)}
    assert flagged == {COPIER, "987655", "unset", "untouched", *ATTACKS}
    with open(out / "variant_difficulty.csv") as f:
        rows = list(csv.DictReader(f))
    assert {r["question"] for r in rows} == set(QUESTIONS) - {"identity"}
    graded = sum(not r.error for r in results.values())  # an unreadable upload says nothing
    for q in SHORT:
        assert sum(int(r["submissions"]) for r in rows if r["question"] == q) == graded
    assert "Hardest variant" in (out / "variant_difficulty.html").read_text()


def test_odd_notebooks_cost_no_exam_report(batch):
    """Deeply nested JSON and a text nbformat: each costs its own submission at most, and
    every exam report is written with every other submission in it."""
    results, out = batch
    deep = results["deep_metadata"]
    assert deep.score == sum(MAX.values()), deep.notes
    assert "nbformat field is not a version number" in results["nbformat_text"].error
    assert "Because the target is hidden." in \
        (out / "deep_metadata" / "free_response.html").read_text()
    assert "not graded" in (out / "nbformat_text" / "free_response.html").read_text()
    combined = (out / "free_responses.html").read_text()
    assert combined.count('<section class="student">') == len(results)
    assert (out / "identity_flags.csv").is_file() and (out / "variant_difficulty.csv").is_file()


def test_one_sheet_that_cannot_be_made_costs_its_own_page(batch, monkeypatch, tmp_path):
    """When the grader fails on one submission's sheet, that submission's page and flag
    row say so (for a person to look at) and every other sheet is written."""
    from autograder.exam import reports
    from autograder.exam_midterm import reference
    results, _ = batch

    def sheet(result, ref, settings):
        if result.submission == "s3001":
            raise RuntimeError("a fault of the grader")
        return made(result, ref, settings)
    made = reports._sheet
    monkeypatch.setattr(reports, "_sheet", sheet)
    graded = SimpleNamespace(out=tmp_path, assignment=assignment_mod.load("exam_midterm"),
                             results=list(results.values()))
    lines = reports.write(graded, reference)
    with open(tmp_path / "identity_flags.csv") as f:
        flags = {row["submission"]: row["flag"] for row in csv.DictReader(f)}
    assert flags["s3001"].startswith(reports.UNREAD) and "RuntimeError" in flags["s3001"]
    assert flags[COPIER].startswith("IDENTITY FLAG")
    assert reports.UNREAD in (tmp_path / "s3001" / "free_response.html").read_text()
    assert "Because the target is hidden." in \
        (tmp_path / "S3002" / "free_response.html").read_text()
    assert any("identity flags:" in line for line in lines)


def test_extract_reads_answers_between_markers():
    """Answers are the Markdown after a marker, up to END QUESTION; placeholders are no answer."""
    nb = {"cells": [
        {"cell_type": "markdown", "source": ["<!-- free response: a -->\n", "Prompt A"]},
        {"cell_type": "markdown", "source": free_response.PLACEHOLDER},
        {"cell_type": "markdown", "source": "my answer\n\n<!-- END QUESTION -->\nnot this"},
        {"cell_type": "markdown", "source": "<!-- free response: b -->"},
        {"cell_type": "code", "source": "x = 1"},
        {"cell_type": "markdown", "source": "after code: not an answer"},
    ]}
    got = free_response.extract(kept_cells.keep(nb["cells"]), ["a", "b", "c"])
    assert [r.answer for r in got] == ["my answer", None, None]
    assert got[0].prompt == "Prompt A"
    assert free_response.extract([], ["a"])[0].answer is None  # a notebook that was unreadable


def test_demo_exam_submissions(tmp_path):
    """The demo exam submissions grade as their names say (that they are what
    autograder/exam_midterm/examples.py makes is tests/build/test_build.py's check)."""
    from autograder.exam_midterm.examples import EXPECTED
    folder = paths.EXAMPLES / "exam_midterm"
    if not folder.is_dir():
        pytest.skip("no demo exam submissions")
    results = grade("exam_midterm", folder, tmp_path / "out")
    got = {sid: r.score for sid, r in results.items()}
    assert got == EXPECTED
    assert results["s1003"].notes[0].startswith("IDENTITY FLAG")
    assert "IDENTITY FLAG" not in " ".join(results["123456"].notes)


EXPORT_YML = """\
submission_111:
  :submitters:
  - :name: Cy
    :sid: s4001
    :email: cy@uni.edu
  :created_at: 2026-03-02 10:05:00.000000000 -08:00
  :score: !ruby/object:BigDecimal 18:0.105e2
submission_112:
  :submitters:
  - :name: Di
    :sid: s4002
    :email: di@uni.edu
  :created_at: 2026-03-02 10:06:00.000000000 -08:00
"""


def test_gradescope_export_archive_knows_its_submitters(tmp_path):
    """Unpacked 'Export Submissions': users come from the top-level submission_metadata.yml."""
    subs = tmp_path / "export"
    notebook(subs / "submission_111" / "exam_midterm.ipynb", "s4001", "s4001")
    notebook(subs / "submission_112" / "exam_midterm.ipynb", "s4001", "s4001")  # Di copied Cy
    (subs / "submission_metadata.yml").write_text(EXPORT_YML)
    results = grade("exam_midterm", subs, tmp_path / "out")
    assert set(results) == {"submission_111", "submission_112"}
    cy, di = results["submission_111"], results["submission_112"]
    assert cy.metadata["users"][0]["sid"] == "s4001" and cy.score == sum(MAX.values())
    assert cy.metadata["created_at"].startswith("2026-03-02T10:05:00")
    assert di.annotations["exam"]["identity"]["graded_as"] == "s4002"
    assert scores(di)["identity"] == 0 and di.notes[0].startswith("IDENTITY FLAG")


def test_a_submission_regraded_by_its_path_keeps_the_exports_identity(tmp_path):
    """Di copied Cy's notebook and uploaded a submission_metadata.yml beside it naming Cy:
    regraded alone by its path, it is still Di's (the export above it says so), flagged,
    and graded with Di's numbers."""
    subs = tmp_path / "export"
    notebook(subs / "submission_111" / "exam_midterm.ipynb", "s4001", "s4001")
    notebook(subs / "submission_112" / "exam_midterm.ipynb", "s4001", "s4001")  # Di copied Cy
    (subs / "submission_metadata.yml").write_text(EXPORT_YML)
    (subs / "submission_112" / "submission_metadata.yml").write_text(
        EXPORT_YML.split("submission_112:")[0].replace("submission_111:", "exam_midterm.ipynb:"))
    results = grade("exam_midterm", subs / "submission_112" / "exam_midterm.ipynb",
                    tmp_path / "out")
    (di,) = results.values()
    assert di.metadata["users"][0]["sid"] == "s4002"
    assert di.annotations["exam"]["identity"]["graded_as"] == "s4002"
    assert scores(di)["identity"] == 0 and di.notes[0].startswith("IDENTITY FLAG")
    assert all(scores(di)[q] == 0.5 for q in SHORT), scores(di)


def test_canvas_download_identity_is_the_canvas_user_id(tmp_path):
    """Canvas 'Download Submissions' names (<name>_<user id>_<submission id>_<file>):
    STUDENT_ID is the Canvas user id; a neighbour's id is flagged and graded with
    the submitter's own numbers."""
    subs = tmp_path / "canvas"
    notebook(subs / "adalovelace_4242_98765_exam_midterm.ipynb", "4242", "4242")
    notebook(subs / "bohr_4243_98766_exam_midterm.ipynb", "4242", "4242")  # copied Ada's
    results = grade("exam_midterm", subs, tmp_path / "out")
    ada, bo = results["adalovelace_4242"], results["bohr_4243"]
    assert ada.score == sum(MAX.values()), ada.notes
    assert bo.annotations["exam"]["identity"]["graded_as"] == "4243"
    assert scores(bo)["identity"] == 0 and bo.notes[0].startswith("IDENTITY FLAG")


def test_two_files_of_one_student_keep_their_identity(tmp_path):
    """s2002.ipynb and s2002.zip: two result folders, both graded as s2002's exam (the
    variants depend on it), and the duplicate is reported."""
    subs = tmp_path / "subs"
    notebook(subs / "s2002.ipynb", "s2002", "s2002")
    with zipfile.ZipFile(subs / "s2002.zip", "w") as zf:
        zf.write(subs / "s2002.ipynb", "exam_midterm.ipynb")
    entries, warnings = discover(subs)
    assert [(e.id, e.submitter) for e in entries] == [("s2002.ipynb", "s2002"),
                                                       ("s2002.zip", "s2002")]
    assert any("2 submissions share a name" in w for w in warnings), warnings
    results = grade("exam_midterm", subs, tmp_path / "out")
    for sub in ("s2002.ipynb", "s2002.zip"):
        assert results[sub].question_scores(QUESTIONS) == MAX, results[sub].notes
        assert any("its submitter is still 's2002'" in n for n in results[sub].notes)
        assert (tmp_path / "out" / sub / "results.json").is_file()
