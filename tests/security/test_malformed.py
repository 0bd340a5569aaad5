"""Does bad input cost only its own submission, with a message the student can act on?"""
from __future__ import annotations

import inspect
import io
import json
import os
import pickle
import zipfile
from pathlib import Path

import nbformat
import pytest

from autograder.engine import assignment as assignment_mod
from tests.conftest import grade, write_notebook
from tests.security import bombs

MARKER = Path("/tmp/autograder-unpickled-marker")


class _Payload:
    """Unpickling this would create MARKER: the grader must never unpickle."""

    def __reduce__(self):
        return (os.system, (f"touch {MARKER}",))


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = tmp_path_factory.mktemp("malformed")
    subs = root / "subs"
    subs.mkdir()
    a = assignment_mod.load("hw1_attention")
    reference = inspect.getsource(a.reference)
    (subs / "invalid_json.ipynb").write_text('{"cells": [')
    (subs / "empty.ipynb").write_bytes(b"")
    (subs / "not_a_notebook.ipynb").write_text("[1, 2, 3]")
    v3 = {"nbformat": 3, "nbformat_minor": 0, "metadata": {},
          "worksheets": [{"cells": [{"cell_type": "code", "input": reference,
                                      "language": "python", "outputs": []}]}]}
    (subs / "old_nbformat_v3.ipynb").write_text(json.dumps(v3))
    write_notebook(subs / "no_stub_cells.ipynb", ["x = 1"])
    write_notebook(subs / "extra_cells.ipynb", ["import math", reference, "y = [i for i in range(3)]",
                                                "%timeit sum(range(10))", "!ls /"])
    write_notebook(subs / "syntax_error_then_answers.ipynb", ["def broken(:", reference])
    with zipfile.ZipFile(subs / "zip_traversal.zip", "w") as zf:
        zf.writestr("../../escaped.ipynb", _notebook_text([reference]))
        zf.writestr("../../../tmp/autograder-escaped.txt", "pwned")
    with zipfile.ZipFile(subs / "zip_bomb.zip", "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("bomb.ipynb", b"0" * (64 * 2**20))
    (subs / "not_a_zip.zip").write_bytes(b"PK\x03\x04 garbage")
    honest = _notebook_text([reference]).encode()
    bombs.member_bomb(subs / "zip_of_members.zip", honest, 300_000)
    bombs.member_bomb(subs / "zip_lying_count.zip", honest, 12_000, stated=1)
    bombs.values_bomb(subs / "metadata_of_lists.ipynb", [reference], 600_000)
    write_notebook(subs / "dup.ipynb", [reference])
    with zipfile.ZipFile(subs / "dup.zip", "w") as zf:
        zf.writestr("dup.ipynb", _notebook_text(["x = 1"]))
    (subs / "two_notebooks").mkdir()
    write_notebook(subs / "two_notebooks" / "a.ipynb", [reference])
    write_notebook(subs / "two_notebooks" / "b.ipynb", [reference])
    otter_folder = subs / "otter_log_and_metadata"
    otter_folder.mkdir()
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(reference)]
    nb.metadata["otter"] = {"tests": {"causal_mask": "__import__('os').system('touch "
                                       f"{MARKER}')"}}
    nbformat.write(nb, str(otter_folder / "hw1_attention.ipynb"))
    (otter_folder / ".OTTER_LOG").write_bytes(pickle.dumps(_Payload()))
    (otter_folder / "results.pkl").write_bytes(pickle.dumps(_Payload()))
    (otter_folder / "results.json").write_text(json.dumps({"score": 999}))
    name = os.fsencode("caf\xe9-") + b"\xff.ipynb"  # not valid UTF-8
    write_notebook(Path(os.fsdecode(bytes(subs) + b"/" + name)), [reference])
    (subs / "notes.txt").write_text("not a submission")
    MARKER.unlink(missing_ok=True)
    return a, grade(a.id, subs, root / "out"), root


def _notebook_text(cells):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(c) for c in cells]
    buf = io.StringIO()
    nbformat.write(nb, buf)
    return buf.getvalue()


@pytest.mark.parametrize("sub, message", [
    ("invalid_json", "not valid notebook JSON"),
    ("empty", "empty"),
    ("not_a_notebook", "not a notebook"),
    ("zip_bomb", "larger than"),
    ("zip_of_members", "the zip holds more than 10,000 files"),
    ("zip_lying_count", "the zip holds more than 10,000 files"),
    ("metadata_of_lists", "more than 500,000 values in its outputs or metadata"),
    ("not_a_zip", "could not be read"),
    ("two_notebooks", "found 2 notebooks"),
])
def test_unreadable_submissions_score_zero_with_a_clear_message(graded, sub, message):
    a, results, _ = graded
    r = results[sub]
    assert r.score == 0 and len(r.tests) == len(a.cases)
    assert message in r.notes[0]


@pytest.mark.parametrize("sub", ["old_nbformat_v3", "extra_cells", "syntax_error_then_answers",
                                 "zip_traversal", "otter_log_and_metadata", "dup.ipynb"])
def test_readable_oddities_are_graded_normally(graded, sub):
    a, results, _ = graded
    assert results[sub].score == a.max_total, results[sub].notes


def test_a_broken_cell_is_reported(graded):
    notes = graded[1]["syntax_error_then_answers"].notes
    assert any(n.startswith('cell 1 (starting "def broken(:") raised SyntaxError') for n in notes)


def test_missing_stubs_say_so(graded):
    r = graded[1]["no_stub_cells"]
    assert r.score == 0
    assert "name 'causal_mask' is not defined in your notebook" in r.tests[0].output


def test_duplicate_ids_are_both_kept(graded):
    results = graded[1]
    assert {"dup.ipynb", "dup.zip"} <= set(results)
    assert "same name" in results["dup.zip"].notes[0]


def test_non_utf8_name_gets_a_printable_id(graded):
    ids = [i for i in graded[1] if i.startswith("caf")]
    assert len(ids) == 1 and ids[0].encode("utf-8")
    assert (graded[2] / "out" / ids[0] / "results.json").exists()


def test_nothing_shipped_is_unpickled_or_evaluated(graded):
    assert not MARKER.exists()
    assert not Path("/tmp/autograder-escaped.txt").exists()


def test_a_file_that_is_no_notebook_keeps_its_student_not_graded(graded):
    """Is notes.txt beside the notebooks kept (its student listed) with the reason, unrun?"""
    r = graded[1]["notes"]
    assert r.error and "notes.txt is not a notebook, so it was not graded" in r.error
    assert r.score == 0 and r.notebook_output == ""


def test_a_dead_template_is_replaced(tmp_path):
    """If the template process dies mid-batch, the next submission still gets graded."""
    from autograder.engine.config import load
    from autograder.engine.isolation.workers import Template
    template = Template(load("hw1_attention"), [])
    try:
        template.spawn().kill()
        template.proc.kill()
        template.proc.wait()
        conn = template.spawn()
        assert not conn.dead and conn.pid
        conn.kill()
    finally:
        template.close()
