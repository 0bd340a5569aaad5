"""Does each notebook run top to bottom on a fresh Python, with only its setup cell's help?

A student on Google Colab, or with a fresh Python, has numpy and torch but not
otter-grader. The notebook's first cell installs otter-grader, at the version
requirements.txt pins, when it is missing. Here a virtual environment without
the system's site-packages holds numpy and torch only (linked from this
project's environment, so nothing big is downloaded); each assignment's
solution notebook then runs as a plain script, from its setup cell (which
installs otter-grader from the package index) to its last public check, all of
which must pass. Slow (one pip install and seven notebooks): about a minute.
The worker side is covered too: while grading, the setup cell installs nothing,
and on Colab (simulated) it writes the public checks where otter looks.
"""
from __future__ import annotations

import inspect
import json
import re
import subprocess
import sys
import textwrap
import venv
from pathlib import Path

import nbformat
import pytest

from autograder import paths, registry
from autograder.build import solution_notebook, student_notebook
from autograder.engine import assignment as assignment_mod
from autograder.hw1_attention import reference
from tests import installed
from tests.conftest import grade

KEPT = ("numpy", "torch")
"""The distributions the fresh environment starts with (and torch's own requirements)."""


@pytest.fixture(scope="module")
def fresh_python(tmp_path_factory) -> Path:
    """A venv without system site-packages whose only packages are numpy and torch."""
    root = tmp_path_factory.mktemp("fresh")
    venv.EnvBuilder(system_site_packages=False, with_pip=True, symlinks=True).create(root / "env")
    python = root / "env" / "bin" / "python"
    linked = root / "linked"
    linked.mkdir()
    for dist in installed.closure(KEPT):
        for source in installed.top_level(dist):
            if not (linked / source.name).exists():
                (linked / source.name).symlink_to(source)
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                          capture_output=True, text=True, check=True).stdout.strip()
    (Path(site) / "kept.pth").write_text(str(linked) + "\n")
    probe = subprocess.run([str(python), "-c", "import numpy, torch\nimport otter"],
                           capture_output=True, text=True)
    assert "No module named 'otter'" in probe.stderr, probe.stderr  # numpy and torch, no otter
    return python


def _is_export_cell(source: str) -> bool:
    """The export cell calls export_submission, which the setup cell defines."""
    return "export_submission(" in source and "def export_submission" not in source


def _script(nb: nbformat.NotebookNode, questions: list[str]) -> str:
    """The notebook's code cells as one script (IPython lines dropped), then every public
    check. The export cell is left out: it re-runs the notebook in a Jupyter kernel, which
    a plain script has not (on Colab, the export cell's other branch is checked below)."""
    lines = []
    for cell in nb.cells:
        if cell.cell_type == "code" and not _is_export_cell(cell.source):
            lines += [line for line in cell.source.splitlines()
                      if not line.lstrip().startswith(("%", "!"))]
    checks = textwrap.dedent(f"""
        for question in {questions!r}:
            result = grader.check(question)
            assert result.passed_all, (question, repr(result))
        print("ALL PUBLIC CHECKS PASSED")
    """)
    return "\n".join(lines) + "\n" + checks


@pytest.mark.slow(minutes=3)  # the first notebook installs otter-grader from the index
@pytest.mark.parametrize("assignment_id", [a.id for a in registry.all_assignments() if a.has_master])
def test_notebook_runs_on_a_fresh_python(fresh_python, assignment_id, tmp_path):
    loaded = assignment_mod.load(assignment_id)
    questions = list(loaded.questions)
    (tmp_path / f"{assignment_id}.ipynb").write_bytes(student_notebook(assignment_id))
    (tmp_path / "run.py").write_text(_script(solution_notebook(assignment_id), questions))
    done = subprocess.run([str(fresh_python), "run.py"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=900)
    assert done.returncode == 0 and "ALL PUBLIC CHECKS PASSED" in done.stdout, \
        (done.stdout[-2000:], done.stderr[-4000:])


def _setup_cell(assignment_id: str) -> str:
    nb = nbformat.reads(student_notebook(assignment_id).decode(), as_version=4)
    return nb.cells[0].source


def test_setup_cell_pins_the_required_version():
    """The install is otter-grader at requirements.txt's version, the same in every notebook."""
    pin = re.search(r"^otter-grader==\S+", (paths.ROOT / "requirements.txt").read_text(), re.M).group(0)
    for assignment_id in [a.id for a in registry.all_assignments() if a.has_master]:
        cell = _setup_cell(assignment_id)
        assert f'"{pin}"' in cell and "grader = otter.Notebook(_checks_file())" in cell


def test_setup_cell_installs_nothing_while_grading(tmp_path):
    """In the grader's worker `import otter` finds the worker's own otter: the install
    branch, here made to fail loudly, never runs, and the notebook grades in full."""
    cell = _setup_cell("hw1_attention")
    loud = cell.replace("    import subprocess\n", "    raise RuntimeError('setup cell installing')\n")
    assert loud != cell
    subs = tmp_path / "subs"
    subs.mkdir()
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(loud),
                nbformat.v4.new_code_cell(inspect.getsource(reference))]
    nbformat.write(nb, str(subs / "s.ipynb"))
    result = grade("hw1_attention", subs, tmp_path / "out")["s"]
    assert not [n for n in result.notes if "installing" in n or "raised" in n], result.notes
    assert result.score == assignment_mod.load("hw1_attention").max_total


COLAB = """
import sys, types, otter.check.utils
# Colab, as otter and the setup cell see it: its IPython shell and its copy of the notebook.
otter.check.utils.get_ipython = lambda: "<google.colab._shell.Shell object>"
message = types.ModuleType("google.colab._message")
message.blocking_request = lambda what: {{"ipynb": {notebook}}}
colab = types.ModuleType("google.colab")
colab._message = message
sys.modules.update({{"google": types.ModuleType("google"), "google.colab": colab,
                     "google.colab._message": message}})
"""


def test_setup_cell_on_colab_writes_the_public_checks(tmp_path):
    """On Colab the notebook is not on disk: the setup cell writes its public checks to
    tests/, where otter looks there, and the checks pass for the solution; the export cell
    says how to download the notebook instead of failing."""
    assignment_id = "hw6_encoder_decoder"
    questions = assignment_mod.load(assignment_id).questions
    student = json.loads(student_notebook(assignment_id))
    solution = solution_notebook(assignment_id)
    export = next(c.source for c in solution.cells if _is_export_cell(c.source))
    script = COLAB.format(notebook=repr(student)) + _script(solution, questions) + export
    (tmp_path / "run.py").write_text(script)
    done = subprocess.run([sys.executable, "run.py"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0 and "ALL PUBLIC CHECKS PASSED" in done.stdout, done.stderr[-3000:]
    assert "File > Download > Download .ipynb" in done.stdout
    assert sorted(p.stem for p in (tmp_path / "tests").glob("*.py")) == sorted(questions)
