"""Does a student's answer reach the grade, whatever the notebook's file is called?

Students duplicate notebooks, download them twice (`hw6_encoder_decoder (1).ipynb`),
put their id in the name, keep the handout beside their copy, or run the kernel from
another folder. Here a built student notebook, its answers filled in, runs headless
in a real Jupyter kernel (nbclient) under another name, beside the untouched
handout, with the kernel started in another folder and told the notebook's path as a
Jupyter server tells it (JPY_SESSION_NAME) or as VS Code does (`__vsc_ipynb_file__`);
its export cell's zip is then graded: the answers graded are the edited ones. When
the kernel cannot tell which of two notebooks is open, the export cell refuses and
writes no zip.

Every assignment's notebook takes the renamed path through its export cell (about
3 minutes for the seven on two cores: otter's export re-runs the notebook to check
the zip; all but hw6, numpy only and the fastest, are marked slow). The other
cases use hw6 alone: they exercise the setup and export cells, which every
notebook builds from one template (autograder/build/transforms.py).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import nbformat
import pytest

from autograder import paths, registry
from autograder.build import solution_notebook, student_notebook
from autograder.build.examples import answers_of, fill
from autograder.engine import assignment as assignment_mod
from tests.conftest import grade

# Heavy (runs every notebook in Jupyter kernels): the fast tier, -m 'not heavy', skips it.
pytestmark = pytest.mark.heavy

nbclient = pytest.importorskip("nbclient")

ASSIGNMENT = "hw6_encoder_decoder"
EXPORT_CELL = "otter cannot export from Colab"
RENAMED = f"{ASSIGNMENT} (1).ipynb"


EXAM_STUDENT = "s1001"
"""The exam's answers depend on who answers: its edited notebook is this student's
example (full marks), and its zip is graded as theirs."""


def _notebooks(assignment_id: str = ASSIGNMENT):
    """(handout, the handout with the solution's answers), as NotebookNodes."""
    handout = nbformat.reads(student_notebook(assignment_id).decode(), as_version=4)
    if assignment_id == "exam_midterm":
        return handout, nbformat.read(str(paths.EXAMPLES / assignment_id / f"{EXAM_STUDENT}.ipynb"),
                                      as_version=4)
    edited = fill(nbformat.reads(student_notebook(assignment_id).decode(), as_version=4),
                  answers_of(solution_notebook(assignment_id)))
    return handout, edited


def _run(nb, cwd: Path, env: dict | None = None, first: str = "") -> str:
    """Run `nb` in a fresh kernel started in `cwd`; its output (printed and shown)."""
    if first:
        nb.cells.insert(0, nbformat.v4.new_code_cell(first))
    client = nbclient.NotebookClient(nb, timeout=300, allow_errors=False,
                                     resources={"metadata": {"path": str(cwd)}})
    client.execute(env={**os.environ, **(env or {})})
    return "\n".join(o.get("text", "") or o.get("data", {}).get("text/plain", "")
                     for c in nb.cells if c.cell_type == "code" for o in c.outputs)


KERNEL_LOG_NOISE = "ignore::KernelLogNoise"
"""Every Python started with this in its environment writes a line to its stderr, as
the kernel of otter's check does under load (a traceback when it is shut down, a
TCP notice): the export cell must show none of it to a student whose zip is fine."""

STUDENT_NOTEBOOKS = [pytest.param(a.id, marks=[] if a.id == ASSIGNMENT else [pytest.mark.slow])
                     for a in registry.all_assignments() if a.has_master]


@pytest.fixture(scope="module", params=STUDENT_NOTEBOOKS)
def exported(request, tmp_path_factory):
    """An assignment's renamed, edited notebook beside the untouched handout in
    `course/`, run from `elsewhere/` with JPY_SESSION_NAME naming it, through its
    export cell: (assignment id, course, elsewhere, the cells' output)."""
    assignment_id = request.param
    renamed = f"{assignment_id} (1).ipynb"
    root = tmp_path_factory.mktemp("student")
    course, elsewhere = root / "course", root / "elsewhere"
    course.mkdir()
    elsewhere.mkdir()
    handout, edited = _notebooks(assignment_id)
    nbformat.write(handout, str(course / f"{assignment_id}.ipynb"))
    nbformat.write(edited, str(course / renamed))
    output = _run(edited, elsewhere, {"JPY_SESSION_NAME": str(course / renamed),
                                      "PYTHONWARNINGS": KERNEL_LOG_NOISE})
    return assignment_id, course, elsewhere, output


def test_export_packs_the_renamed_notebook_beside_the_original(exported, tmp_path):
    """Is the zip's notebook the edited one, and does it grade in full?"""
    assignment_id, course, elsewhere, output = exported
    renamed = f"{assignment_id} (1).ipynb"
    zips = sorted(course.glob("*.zip"))
    assert len(zips) == 1 and not list(elsewhere.glob("*.zip")), (zips, output[-2000:])
    with zipfile.ZipFile(zips[0]) as zf:
        notebooks = [n for n in zf.namelist() if n.endswith(".ipynb")]
    assert notebooks == [renamed]
    assert f"Packed {course / renamed}" in output
    subs = tmp_path / "subs"
    subs.mkdir()
    (subs / f"{EXAM_STUDENT}.zip").write_bytes(zips[0].read_bytes())
    result = grade(assignment_id, subs, tmp_path / "out")[EXAM_STUDENT]
    assert result.score == pytest.approx(assignment_mod.load(assignment_id).max_total), result.notes


def test_public_checks_ran_and_passed(exported):
    """Did every grader.check cell find the checks (no FileNotFoundError, no NameError),
    and the export cell print no kernel notice?"""
    assignment_id, _, _, output = exported
    for question in assignment_mod.load(assignment_id).questions:
        assert f"{question} results: All test cases passed!" in output, output[-3000:]
    assert "could not be found" not in output
    assert "KernelLogNoise" not in output and "without encryption" not in output, output[-3000:]


def _setup_and_export():
    """The handout's setup and export cells only: cheap to run (no answers needed)."""
    handout, _ = _notebooks()
    nb = nbformat.v4.new_notebook(metadata=handout.metadata)
    nb.cells = [handout.cells[0]] + [c for c in handout.cells if EXPORT_CELL in c.source]
    return nb


ASSERTING_SAMPLER = """
import numpy as np

def sample_next(logits, temperature, rng, top_k=None):
    assert temperature > 0, "my own words"
    z = np.asarray(logits, dtype=np.float64) / temperature
    if top_k is not None:
        z = np.where(z >= np.sort(z)[-top_k], z, -np.inf)
    p = np.exp(z - z.max())
    return int(rng.choice(z.size, p=p / p.sum()))
"""


def test_an_assert_in_the_students_code_is_not_shown_as_the_checks_words(tmp_path):
    """A stub refusing with assert where its public check wants ValueError: grader.check
    names the AssertionError and the check's line that ran into it, instead of showing
    the student's own message as if the check had said it."""
    handout, _ = _notebooks()
    nbformat.write(handout, str(tmp_path / f"{ASSIGNMENT}.ipynb"))
    nb = nbformat.v4.new_notebook(metadata=handout.metadata)
    nb.cells = [handout.cells[0], nbformat.v4.new_code_cell(ASSERTING_SAMPLER),
                nbformat.v4.new_code_cell('grader.check("sample_next")')]
    output = _run(nb, tmp_path, {"JPY_SESSION_NAME": str(tmp_path / f"{ASSIGNMENT}.ipynb")})
    assert "AssertionError: my own words (raised by: sample_next(np.zeros(3), 0.0" in output, \
        output[-2000:]
    assert not [line for line in output.splitlines() if line.strip() == "my own words"]


def test_export_refuses_when_it_cannot_tell_which_notebook(tmp_path):
    """Two notebooks in the folder and no word from Jupyter: no zip, and a message
    naming what otter would have packed and how to choose."""
    handout, edited = _notebooks()
    nbformat.write(handout, str(tmp_path / f"{ASSIGNMENT}.ipynb"))
    nbformat.write(edited, str(tmp_path / RENAMED))
    env = {"JPY_SESSION_NAME": ""}
    output = _run(_setup_and_export(), tmp_path, env)
    assert "NOT EXPORTED" in output and f"otter would pack {ASSIGNMENT}.ipynb" in output
    assert 'export_submission("YOUR FILE NAME.ipynb")' in output
    assert not list(tmp_path.glob("*.zip"))


def test_vs_code_variable_names_the_file(tmp_path):
    """VS Code sets __vsc_ipynb_file__ in the kernel: the export packs that file, and
    warns that it was saved before the last cell ran."""
    handout, edited = _notebooks()
    nbformat.write(handout, str(tmp_path / f"{ASSIGNMENT}.ipynb"))
    mine = tmp_path / "hw6 s2002.ipynb"
    nbformat.write(edited, str(mine))
    nb = _setup_and_export()
    nb.cells[1].source = nb.cells[1].source.replace("run_tests=True", "run_tests=False")
    output = _run(nb, tmp_path, {"JPY_SESSION_NAME": ""},
                  first=f"__vsc_ipynb_file__ = {str(mine)!r}")
    with zipfile.ZipFile(next(tmp_path.glob("*.zip"))) as zf:
        assert [n for n in zf.namelist() if n.endswith(".ipynb")] == [mine.name]
    assert "was last saved at" in output and "before the last cell you ran" in output


def test_export_cell_packs_no_fixed_name():
    """The built export cell never names the handout's file for otter to pack."""
    export = [c for c in json.loads(student_notebook(ASSIGNMENT))["cells"]
              if EXPORT_CELL in "".join(c["source"])]
    assert len(export) == 1 and "grader.export(" not in "".join(export[0]["source"])
    assert "export_submission(pdf=False, run_tests=True)" in "".join(export[0]["source"])


COLAB = """
import json, sys, types, otter.check.utils
# Colab, as otter and the setup cell see it: its shell, its copy of the notebook
# (only through google.colab._message), no file of the notebook on the disk.
otter.check.utils.get_ipython = lambda: "<google.colab._shell.Shell object>"
message = types.ModuleType("google.colab._message")
message.blocking_request = lambda what: {"ipynb": json.load(open(sys.argv[1]))}
colab = types.ModuleType("google.colab")
colab._message = message
sys.modules.update({"google": types.ModuleType("google"), "google.colab": colab,
                    "google.colab._message": message})
"""


def test_colab_export_refuses_and_says_how_to_download(tmp_path):
    """On Colab (simulated: /content holds no notebook, the kernel is told no path),
    do the export cell and export_submission() write no zip, even though the setup
    cell left a copy of the handout in /content for the public checks, and say how to
    download the notebook instead?"""
    content = tmp_path / "content"
    content.mkdir()
    _, edited = _notebooks()
    nbformat.write(edited, str(tmp_path / "in_the_browser.ipynb"))
    nb = _setup_and_export()
    script = "\n".join([COLAB, nb.cells[0].source, 'print("THIS:", this_notebook())',
                        nb.cells[1].source, "export_submission()"])
    (tmp_path / "run.py").write_text(script)
    env = {k: v for k, v in os.environ.items() if not k.startswith("JPY_")}
    done = subprocess.run([sys.executable, str(tmp_path / "run.py"),
                           str(tmp_path / "in_the_browser.ipynb")], cwd=content, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "THIS: (None, 'on Colab this notebook is not on the disk')" in done.stdout
    assert done.stdout.count("File > Download > Download .ipynb") == 2, done.stdout
    assert "NOT EXPORTED: otter cannot pack a notebook on Colab" in done.stdout
    assert (content / f"{ASSIGNMENT}.ipynb").is_file()  # the checks' copy
    assert not list(tmp_path.rglob("*.zip"))


def test_renamed_while_open_is_not_packed_under_its_old_name(tmp_path):
    """Jupyter tells the kernel the path it was started for: after a rename the
    variable names a file that is gone. Beside the handout, the export refuses and
    says so, rather than pack the handout."""
    handout, edited = _notebooks()
    nbformat.write(handout, str(tmp_path / f"{ASSIGNMENT}.ipynb"))
    nbformat.write(edited, str(tmp_path / "mine.ipynb"))
    output = _run(_setup_and_export(), tmp_path,
                  {"JPY_SESSION_NAME": str(tmp_path / RENAMED)})
    assert "NOT EXPORTED" in output and f"Jupyter named {RENAMED}, gone since" in output
    assert not list(tmp_path.glob("*.zip"))


SAVED_AS = "hw6 mine.ipynb"


def _answered(export_options: str = "pdf=False, run_tests=False"):
    """The edited notebook, to run top to bottom (so IPython's In holds its answers),
    its export cell not re-running the notebook (run_tests=False: no 20 s)."""
    _, edited = _notebooks()
    for cell in edited.cells:
        if EXPORT_CELL in cell.source:
            cell.source = cell.source.replace("pdf=False, run_tests=True", export_options)
    return edited


def test_save_as_while_running_is_not_packed_from_the_old_file(tmp_path):
    """Save As while the kernel runs: Jupyter still tells the kernel the old name
    (JPY_SESSION_NAME is fixed when the kernel starts), and the old file, the untouched
    handout downloaded an hour ago, is still there; the new file holds the answers the
    kernel ran. The export packs nothing and names the new file and the call to run."""
    handout, edited = _notebooks()
    old = tmp_path / f"{ASSIGNMENT}.ipynb"
    nbformat.write(handout, str(old))
    an_hour_ago = old.stat().st_mtime - 3600
    os.utime(old, (an_hour_ago, an_hour_ago))
    nbformat.write(edited, str(tmp_path / SAVED_AS))
    output = _run(_answered(), tmp_path, {"JPY_SESSION_NAME": str(old)})
    assert not list(tmp_path.glob("*.zip")), output[-800:]
    assert "NOT EXPORTED" in output and str(old) in output, output[-800:]
    assert f'export_submission("{SAVED_AS}")' in output, output[-800:]
    assert "Packed" not in output


def test_ordinary_use_still_exports_beside_the_handout(tmp_path):
    """Run the cells, save, export: the file Jupyter names holds the code run, so it
    is packed (the handout beside it changes nothing), with no warning."""
    handout, edited = _notebooks()
    nbformat.write(handout, str(tmp_path / f"{ASSIGNMENT}.ipynb"))
    mine = tmp_path / SAVED_AS
    nbformat.write(edited, str(mine))
    saved = mine.stat().st_mtime + 600  # saved after the cells ran, as Ctrl+S would
    os.utime(mine, (saved, saved))
    output = _run(_answered(), tmp_path, {"JPY_SESSION_NAME": str(mine)})
    with zipfile.ZipFile(next(tmp_path.glob("*.zip"))) as zf:
        assert [n for n in zf.namelist() if n.endswith(".ipynb")] == [SAVED_AS]
    assert f"Packed {mine}" in output and "NOT EXPORTED" not in output
    assert "Warning" not in output, output[-800:]


def test_a_cell_changed_after_it_ran_only_warns(tmp_path):
    """The file Jupyter names holds an answer changed after it ran (and was saved
    after the cells ran), and the handout beside it was saved even later: the file
    still holds the rest of the code run, so it is packed, with a warning."""
    handout, edited = _notebooks()
    mine, later = tmp_path / SAVED_AS, tmp_path / f"{ASSIGNMENT}.ipynb"
    ran = _answered()
    changed = next(c for c in edited.cells if "def sample_next" in c.source)
    changed.source += "\n# changed after it ran"
    nbformat.write(edited, str(mine))
    nbformat.write(handout, str(later))
    for path, ahead in ((mine, 600), (later, 1200)):
        os.utime(path, (path.stat().st_mtime + ahead,) * 2)
    output = _run(ran, tmp_path, {"JPY_SESSION_NAME": str(mine)})
    assert f"Packed {mine}" in output and "NOT EXPORTED" not in output, output[-800:]
    assert f"Warning: {mine} does not hold the code you ran last" in output
