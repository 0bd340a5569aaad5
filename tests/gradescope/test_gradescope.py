"""The Gradescope zip and run_autograder's Python entry (run-gradescope),
run on temporary folders laid out like /autograder."""
from __future__ import annotations

import json
import os
import time
import shutil
import subprocess
import stat
import zipfile
from pathlib import Path

import nbformat
import pytest

from autograder import cli, registry
from autograder.build import solution_notebook
from autograder.engine import assignment as assignment_mod
from autograder.engine.intake import handout
from autograder.gradescope import package, run, try_zip
from tests.conftest import FAST_LIMITS
from tests.build.test_build import SCORED

# Heavy (grades every assignment's Gradescope zip): the fast tier, -m 'not heavy', skips it.
pytestmark = pytest.mark.heavy

ASSIGNMENTS = [a.id for a in registry.all_assignments() if a.has_master]
VISIBILITIES = {"hidden", "after_due_date", "after_published", "visible"}


@pytest.fixture(scope="module")
def zips(tmp_path_factory):
    folder = tmp_path_factory.mktemp("zips")
    return {a: package.write_zip(a, folder / f"{a}.zip") for a in ASSIGNMENTS}


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_zip_layout(zips, assignment_id):
    """setup.sh and run_autograder at the root and executable; the package,
    this assignment's hidden tests and config inside; no other assignment's
    hidden tests, no caches."""
    with zipfile.ZipFile(zips[assignment_id]) as zf:
        infos = {i.filename: i for i in zf.infolist()}
        for script in ("setup.sh", "run_autograder"):
            assert script in infos
            mode = infos[script].external_attr >> 16
            assert mode & stat.S_IXUSR, f"{script} is not executable"
            assert zf.read(script).startswith(b"#!/usr/bin/env bash\n")
        run_script = zf.read("run_autograder").decode()
        assert f"run-gradescope --assignment {assignment_id} --root" in run_script
        assert "${AUTOGRADER_ROOT:-/autograder}" in run_script
        setup = zf.read("setup.sh").decode()
        assert "requirements.txt" in setup and "useradd" in setup
        assert "libseccomp2" in setup  # the seccomp filter of the modes without namespaces
        # torch from PyTorch's CPU index, the way scripts/setup.sh takes it
        assert "bash install_torch.sh /autograder/venv/bin/python requirements.txt" in setup
        assert setup.index("install_torch.sh") < setup.index("-r requirements.txt")
        assert zf.read("install_torch.sh") == package.INSTALL_TORCH.read_bytes()
        names = set(infos)
    expected = {"requirements.txt", "pyproject.toml", f"grading_config/{assignment_id}.toml",
                "autograder/__main__.py", "autograder/cli.py", "autograder/gradescope/run.py",
                f"autograder/{assignment_id}/reference.py",
                f"assignments/{assignment_id}/{assignment_id}.ipynb"}  # to recognise an upload of it
    assert expected <= names
    record = registry.get(assignment_id)  # the zip ships exactly the record's package files
    shipped = {n for n in names if n.startswith(f"autograder/{assignment_id}/")}
    assert record.test_files() and shipped == {
        p.relative_to(record.hidden_tests.parent.parent).as_posix() for p in record.package_files()}
    others = set(registry.ids()) - {assignment_id}
    assert not [n for n in names if n.split("/")[1:2] and n.split("/")[1] in others
                and n.startswith("autograder/")]
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_zip_is_deterministic(zips, assignment_id, tmp_path):
    """Does packaging the same sources twice give the same bytes?"""
    again = package.write_zip(assignment_id, tmp_path / "again.zip")
    assert again.read_bytes() == zips[assignment_id].read_bytes()


def autograder_root(tmp_path: Path, files: dict[str, bytes], metadata: dict | None) -> Path:
    """A folder laid out like Gradescope's /autograder."""
    root = tmp_path / "autograder"
    (root / "submission").mkdir(parents=True)
    (root / "results").mkdir()
    for name, data in files.items():
        (root / "submission" / name).write_bytes(data)
    if metadata is not None:
        (root / "submission_metadata.json").write_text(json.dumps(metadata))
    return root


def run_entry(root: Path, assignment_id: str, monkeypatch) -> dict:
    """run_autograder's command line, with the suite's short limits."""
    real = run.grade
    monkeypatch.setattr(run, "grade", lambda a, r, limits=None, allow_unsafe=False:
                        real(a, r, FAST_LIMITS, allow_unsafe))
    status = cli.main(["run-gradescope", "--assignment", assignment_id, "--root", str(root)])
    assert status == 0
    path = root / "results" / "results.json"
    assert path.is_file(), "no results.json written"
    data = json.loads(path.read_text())
    assert not list((root / "results").glob(".*")), "a temporary file was left behind"
    return data


def check_schema(data: dict) -> None:
    assert isinstance(data["score"], (int, float))
    # plain text everywhere: Gradescope's default (sanitised HTML) would eat `<cell 11>`
    assert (data["output_format"], data["test_output_format"], data["test_name_format"]) == \
        ("text", "text", "text")
    assert all(t["output_format"] == t["name_format"] == "text" for t in data["tests"])
    assert isinstance(data["tests"], list) and data["tests"]
    for t in data["tests"]:
        assert {"name", "score", "max_score", "status", "visibility", "output"} <= set(t)
        assert t["visibility"] in VISIBILITIES
        assert t["status"] in ("passed", "failed")
        assert isinstance(t["output"], str) and isinstance(t["name"], str)
        assert 0 <= t["score"] <= t["max_score"]
    assert data["score"] == pytest.approx(sum(t["score"] for t in data["tests"]))


def _nb_bytes(nb) -> bytes:
    return nbformat.writes(nb).encode()


@pytest.mark.parametrize("assignment_id", SCORED)
def test_correct_submission_gets_full_marks(assignment_id, tmp_path, monkeypatch):
    """A correct notebook, with Gradescope metadata: full marks, one entry per hidden test."""
    root = autograder_root(tmp_path, {f"{assignment_id}.ipynb":
                                      _nb_bytes(solution_notebook(assignment_id))},
                           {"id": 123456, "assignment": {"title": assignment_id}})
    data = run_entry(root, assignment_id, monkeypatch)
    check_schema(data)
    loaded = assignment_mod.load(assignment_id)
    assert len(data["tests"]) == len(loaded.cases)
    assert data["score"] == pytest.approx(loaded.max_total)
    assert all(t["status"] == "passed" for t in data["tests"])


@pytest.mark.parametrize("assignment_id", SCORED)
def test_otter_export_zip_is_graded(assignment_id, tmp_path, monkeypatch):
    """An otter export zip left unextracted is found and graded."""
    import io
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr(f"{assignment_id}.ipynb", _nb_bytes(solution_notebook(assignment_id)))
    root = autograder_root(tmp_path, {"export.zip": buf.getvalue()}, None)
    data = run_entry(root, assignment_id, monkeypatch)
    check_schema(data)
    assert data["score"] == pytest.approx(assignment_mod.load(assignment_id).max_total)


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_untouched_notebook_scores_zero(assignment_id, tmp_path, monkeypatch):
    root = autograder_root(tmp_path, {f"{assignment_id}.ipynb":
                                      registry.get(assignment_id).student_notebook.read_bytes()},
                          {"id": 7})
    data = run_entry(root, assignment_id, monkeypatch)
    check_schema(data)
    assert data["score"] == 0 and all(t["status"] == "failed" for t in data["tests"])


def test_empty_submission_gets_an_actionable_error(tmp_path, monkeypatch):
    """Nothing uploaded: one visible 'Autograder error' test telling the
    student what to upload, and a 0 score."""
    root = autograder_root(tmp_path, {}, {"id": 1})
    data = run_entry(root, ASSIGNMENTS[0], monkeypatch)
    check_schema(data)
    assert data["score"] == 0
    [test] = data["tests"]
    assert test["name"] == run.ERROR_TEST and test["visibility"] == "visible"
    assert ".ipynb" in test["output"] and "Traceback" not in test["output"]


def test_unreadable_notebook_is_graded_zero_with_a_reason(tmp_path, monkeypatch):
    """A file that is not a notebook: every test at 0, the reason in the output."""
    root = autograder_root(tmp_path, {f"{ASSIGNMENTS[0]}.ipynb": b"{ this is not json"}, None)
    data = run_entry(root, ASSIGNMENTS[0], monkeypatch)
    check_schema(data)
    assert data["score"] == 0
    assert "notebook" in data["output"].lower()


def test_grader_failure_still_writes_results(tmp_path, monkeypatch):
    """When the engine itself blows up, results.json still appears, with an
    'Autograder error' test and no traceback in what students see."""
    root = autograder_root(tmp_path, {f"{ASSIGNMENTS[0]}.ipynb":
                                      registry.get(ASSIGNMENTS[0]).student_notebook.read_bytes()}, None)

    def explode(*args, **kwargs):
        raise RuntimeError("secret detail /autograder/source/autograder/x.py")
    monkeypatch.setattr("autograder.engine.batch.grade_folder", explode)
    status = cli.main(["run-gradescope", "--assignment", ASSIGNMENTS[0], "--root", str(root)])
    assert status == 0
    data = json.loads((root / "results" / "results.json").read_text())
    check_schema(data)
    [test] = data["tests"]
    assert test["name"] == run.ERROR_TEST and data["score"] == 0
    assert test["max_score"] == pytest.approx(assignment_mod.load(ASSIGNMENTS[0]).max_total)
    assert "secret detail" not in json.dumps(data) and "Traceback" not in json.dumps(data)


def test_lateness_uses_the_submitters_own_due_date(tmp_path, monkeypatch):
    """A submission after the assignment's due date is told so in its output,
    unless the submitter's own due date (an extension) is later."""
    nb = registry.get(ASSIGNMENTS[0]).student_notebook.read_bytes()
    meta = {"id": 9, "created_at": "2026-03-03T10:00:00-08:00",
            "assignment": {"due_date": "2026-03-01T23:59:00-08:00"},
            "users": [{"name": "Ada", "assignment": {"due_date": "2026-03-01T23:59:00-08:00"}}]}
    late = run_entry(autograder_root(tmp_path / "a", {f"{ASSIGNMENTS[0]}.ipynb": nb}, meta),
                     ASSIGNMENTS[0], monkeypatch)
    assert late["output"].startswith("Submitted 1 d 10 h after the due date."), late["output"]
    meta["users"][0]["assignment"]["due_date"] = "2026-03-05T23:59:00-08:00"
    extended = run_entry(autograder_root(tmp_path / "b", {f"{ASSIGNMENTS[0]}.ipynb": nb}, meta),
                         ASSIGNMENTS[0], monkeypatch)
    assert "after the due date" not in extended["output"]


def test_what_gradescope_keeps_beside_the_upload_is_closed_to_workers(tmp_path, monkeypatch):
    """The results folder and the metadata (earlier submissions' results are in
    it) are made root's and handed to the engine as secrets, which the modes
    whose wall is file permissions check."""
    root = autograder_root(tmp_path, {}, {"id": 3})
    for path in (root / "results", root / "submission_metadata.json"):
        path.chmod(0o755)
    seen = {}

    def capture(assignment_id, folder, out, **kwargs):
        seen["secrets"] = kwargs["secrets"]
        raise RuntimeError("stop here")
    monkeypatch.setattr("autograder.engine.batch.grade_folder", capture)
    (root / "submission" / "a.ipynb").write_bytes(b"{}")
    run.main(assignment_id=ASSIGNMENTS[0], root=root)
    assert set(seen["secrets"]) == {root / "results", root / "submission_metadata.json"}
    for path in seen["secrets"]:
        assert path.stat().st_mode & 0o077 == 0, path


def test_submission_id_comes_from_metadata(tmp_path):
    root = autograder_root(tmp_path, {}, {"id": 987654})
    assert run.submission_id(run.read_metadata(root)) == "987654"
    shutil.rmtree(root)
    assert run.submission_id(run.read_metadata(autograder_root(tmp_path, {}, None))) == "submission"


def test_metadata_reaches_the_engine_on_the_entry_not_as_a_file(tmp_path, monkeypatch):
    """Gradescope's metadata (outside the upload) is handed over on the entry,
    cleaned; a submission_metadata.json the student uploaded is not read."""
    nb = registry.get(ASSIGNMENTS[0]).student_notebook.read_bytes()
    root = autograder_root(tmp_path, {f"{ASSIGNMENTS[0]}.ipynb": nb,
                                      "submission_metadata.json": b'{"users": [{"sid": "forged"}]}'},
                           {"id": 42, "users": [{"name": "Ada\u001b[2J", "sid": "s1"}]})
    seen = {}

    def capture(assignment_id, folder, out, **kwargs):
        seen["entries"] = kwargs["entries"]
        seen["files"] = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))
        raise RuntimeError("stop here")
    monkeypatch.setattr("autograder.engine.batch.grade_folder", capture)
    run.main(assignment_id=ASSIGNMENTS[0], root=root)
    [entry] = seen["entries"]
    assert entry.id == "42" and entry.metadata["users"] == [{"name": "Ada", "sid": "s1"}]
    assert seen["files"] == ["42", f"42/{ASSIGNMENTS[0]}.ipynb"]


def test_links_and_pipes_in_the_upload_are_not_followed(tmp_path, monkeypatch):
    """A link to a full solution scores 0 and says why; a FIFO does not block."""
    root = autograder_root(tmp_path, {}, {"id": 7})
    solution = tmp_path / "solution.ipynb"
    solution.write_bytes(_nb_bytes(solution_notebook(ASSIGNMENTS[0])))
    (root / "submission" / f"{ASSIGNMENTS[0]}.ipynb").symlink_to(solution)
    os.mkfifo(root / "submission" / "pipe.ipynb")
    data = run_entry(root, ASSIGNMENTS[0], monkeypatch)
    check_schema(data)
    assert data["score"] == 0
    assert "symbolic link" in data["tests"][0]["output"]


def test_staging_copies_a_bounded_upload_in_chunks(tmp_path, monkeypatch):
    """Is an export zip beyond MAX_UPLOAD_BYTES refused with a message (nothing of it
    left), is no read larger than a chunk, and do notebooks stop being copied once
    their bytes would pass the same budget?"""
    from autograder.engine.intake import files
    monkeypatch.setattr(run, "MAX_UPLOAD_BYTES", 3 * run.CHUNK)
    root = autograder_root(tmp_path, {"export.zip": b"x" * (3 * run.CHUNK + 1)}, {"id": 7})
    reads = []
    real_open = files.open_regular

    def recording(path, label):
        f = real_open(path, label)
        read = f.read
        f.read = lambda n=-1: reads.append(n) or read(n)
        return f
    monkeypatch.setattr(files, "open_regular", recording)
    folder = tmp_path / "staged"
    folder.mkdir()
    with pytest.raises(run.NoSubmission, match="export.zip is larger than 3 MB"):
        run.stage(root, "7", folder)
    assert list(folder.iterdir()) == [] and reads and max(reads) <= run.CHUNK
    monkeypatch.setattr(run, "MAX_NOTEBOOK_BYTES", 1000)
    monkeypatch.setattr(run, "MAX_UPLOAD_BYTES", 2500)
    root = autograder_root(tmp_path / "notebooks", {f"{c}.ipynb": b"{}" * 400 for c in "abcd"},
                           {"id": 8})
    entry, refused = run.stage(root, "8", folder)
    assert sorted(p.name for p in entry.iterdir()) == ["a.ipynb", "b.ipynb"]
    assert len(refused) == 1 and refused[0].endswith("of notebooks were uploaded; the others were "
                                                     "not read")


def run_script(zip_path: Path, root: Path, python: str):
    """Unpack the zip into root/source as Gradescope does and run its
    run_autograder with bash (root and interpreter redirected), as try-zip does."""
    try_zip.unpack_zip(zip_path, root / "source")
    status, output = try_zip.run(root, python)
    assert status == 0, output[-2000:]
    return json.loads((root / "results" / "results.json").read_text()), output


@pytest.mark.parametrize("assignment_id", SCORED)
def test_unpacked_zip_grades_on_its_own(zips, assignment_id, tmp_path):
    """Unpacked as Gradescope does, do the zip's run_autograder and its own
    source (nothing of this checkout) grade a correct submission to full marks?"""
    import sys
    root = autograder_root(tmp_path, {f"{assignment_id}.ipynb":
                                      _nb_bytes(solution_notebook(assignment_id))}, {"id": 5})
    data, stderr = run_script(zips[assignment_id], root, sys.executable)
    check_schema(data)
    assert data["score"] == pytest.approx(assignment_mod.load(assignment_id).max_total), stderr


def test_the_unpacked_zip_tells_a_student_who_uploaded_the_handout(zips, tmp_path):
    """The notebook as handed out, uploaded: 0 points, and the zip's own grader (which has
    the handout, not this checkout's) says first that it is the handout."""
    import sys
    root = autograder_root(tmp_path, {"hw1_attention.ipynb": registry.get(
        "hw1_attention").student_notebook.read_bytes()}, {"id": 5})
    data, stderr = run_script(zips["hw1_attention"], root, sys.executable)
    assert data["score"] == 0 and data["output"].startswith(handout.NOTE), data["output"][:500]


def test_run_autograder_writes_results_when_python_is_missing(zips, tmp_path):
    """Even when the interpreter cannot start, results.json holds an
    'Autograder error' test (so Gradescope never shows a bare failure)."""
    root = autograder_root(tmp_path, {}, None)
    data, stderr = run_script(zips[ASSIGNMENTS[0]], root, str(tmp_path / "no-such-python"))
    check_schema(data)
    assert data["tests"][0]["name"] == run.ERROR_TEST and data["score"] == 0
    assert "wrote no results" in stderr


def test_run_autograder_writes_run_pys_own_error_result():
    """When Python cannot start, run_autograder writes the error result run.py
    writes (same max_score, same wording), rendered into it by build."""
    script = package.render_script("run_autograder", "hw1_attention").decode()
    written = json.loads(script.split("<<'JSON'\n", 1)[1].split("\nJSON\n", 1)[0])
    assert written == run.error_results("hw1_attention", run.NOT_STARTED)
    assert written["tests"][0]["max_score"] == assignment_mod.load("hw1_attention").max_total
    assert written["output_format"] == written["tests"][0]["output_format"] == "text"


def test_a_bundled_cpu_torch_wheel_is_shipped_and_installed_first(tmp_path):
    """build --torch-wheel puts the wheel in wheels/; setup.sh installs it before requirements."""
    wheel = tmp_path / "torch-2.13.0+cpu-cp311-cp311-manylinux_2_28_x86_64.whl"
    wheel.write_bytes(b"not really a wheel")
    dest = package.write_zip("hw1_attention", tmp_path / "hw1.zip", wheel)
    with zipfile.ZipFile(dest) as zf:
        assert zf.read(f"wheels/{wheel.name}") == wheel.read_bytes()
        setup = zf.read("setup.sh").decode()
    assert setup.index('pip install "$wheel"') < setup.index("-r requirements.txt")
    out = subprocess.run(["bash", "-c", 'basename "$0" | sed -E \'s/.*-cp([0-9])([0-9]+)-.*/\\1.\\2/\'',
                          str(wheel)], capture_output=True, text=True)
    assert out.stdout.strip() == "3.11"  # the Python setup.sh installs for this wheel


def test_hostile_submission_cannot_forge_the_results(tmp_path, monkeypatch):
    """A submission that rewrites results.json (now and from a detached process),
    reads the hidden tests and then hangs gets exactly what its answers earn."""
    import inspect
    loaded = assignment_mod.load("hw1_attention")
    root = tmp_path / "autograder"
    forged = json.dumps({"score": 1000, "tests": []})
    attack = f"""
import glob, os, time
targets = ["/autograder/results/results.json", {str(root / 'results' / 'results.json')!r}]
def forge():
    for t in targets:
        try:
            open(t, "w").write({forged!r})
        except OSError:
            pass
forge()
stolen = [open(p).read() for p in glob.glob("/autograder/source/autograder/*/reference.py")
          + glob.glob({str(loaded.reference.__file__)!r})]
if os.fork() == 0:
    os.setsid()
    for _ in range(100):
        time.sleep(0.1)
        forge()
    os._exit(0)
assert not stolen, "the hidden reference was readable"
"""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(inspect.getsource(loaded.reference)),
                nbformat.v4.new_code_cell(attack),
                nbformat.v4.new_code_cell("while True:\n    pass")]
    root = autograder_root(tmp_path, {"hw1_attention.ipynb": _nb_bytes(nb)}, {"id": 7})
    data = run_entry(root, "hw1_attention", monkeypatch)
    check_schema(data)
    assert data["score"] == pytest.approx(loaded.max_total)
    assert len(data["tests"]) == len(loaded.cases)
    time.sleep(1.5)  # a surviving rewriter would have struck by now
    assert json.loads((root / "results" / "results.json").read_text()) == data
    if os.geteuid() == 0:
        assert "hidden reference was readable" not in json.dumps(data)
