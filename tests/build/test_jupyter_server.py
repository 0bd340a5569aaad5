"""Does the notebook find its own file in a real JupyterLab and Notebook 7 server?

A real Jupyter server (`python -m jupyterlab`, `python -m notebook`) serves a
temporary root, on 127.0.0.1 with a token. The built hw6 handout is saved in a
subfolder under another name (`hw6_encoder_decoder (1).ipynb`) beside the untouched
handout, one stub answered, as the front end saves it. A session is opened as
JupyterLab 4 and Notebook 7 open one, and cells run through the kernel's websocket:
the setup cell, the answered stub, its `grader.check`, the export cell. The zip must
hold the renamed, edited file; the kernel must have been told its path in
`__session__` and JPY_SESSION_NAME, as the setup cell expects.

Slow: each server takes a few seconds to start, and the export re-runs the
notebook (otter's check of the zip), about 20 s on two busy cores.
"""
from __future__ import annotations

import json
import zipfile

import nbformat
import pytest

from autograder.build import solution_notebook, student_notebook
from autograder.build.examples import answers_of, fill

pytest.importorskip("jupyter_server", reason="jupyter_server is not installed "
                    "(pip install -r requirements-test.txt)")
from tests.build.jupyter_server_tools import JupyterServer  # noqa: E402

ASSIGNMENT = "hw6_encoder_decoder"
RENAMED = f"{ASSIGNMENT} (1).ipynb"
STUB = "teacher_forcing"
EXPORT_CELL = "otter cannot export from Colab"
FOLDER = "week 6"

pytestmark = pytest.mark.slow


def _edited() -> dict:
    """The handout with one stub answered (the solution's), as JSON."""
    handout = nbformat.reads(student_notebook(ASSIGNMENT).decode(), as_version=4)
    answer = answers_of(solution_notebook(ASSIGNMENT))[STUB]
    return json.loads(nbformat.writes(fill(handout, {STUB: answer})))


def _cell(nb: dict, needle: str) -> str:
    return next("".join(c["source"]) for c in nb["cells"]
                if c["cell_type"] == "code" and needle in "".join(c["source"]))


@pytest.fixture(scope="module", params=["jupyterlab", "notebook"])
def server(request, tmp_path_factory):
    root = tmp_path_factory.mktemp("root")
    (root / FOLDER).mkdir()
    up = JupyterServer(request.param, root, tmp_path_factory.mktemp("jupyter"))
    yield up
    up.stop()


@pytest.fixture(scope="module")
def opened(server):
    """The renamed, edited notebook open in a session, beside the untouched handout;
    (server, kernel, the notebook's JSON)."""
    server.save(f"{FOLDER}/{ASSIGNMENT}.ipynb", json.loads(student_notebook(ASSIGNMENT)))
    nb = _edited()
    server.save(f"{FOLDER}/{RENAMED}", nb)
    session = server.open_notebook(f"{FOLDER}/{RENAMED}")
    kernel = server.kernel(session["kernel"]["id"])
    yield server, kernel, nb
    kernel.close()
    server.request("DELETE", f"api/sessions/{session['id']}")


def test_the_server_tells_the_kernel_the_notebooks_path(opened):
    """Are __session__ and JPY_SESSION_NAME the notebook's absolute path, and does the
    setup cell find the renamed file from them, though two notebooks share its folder?"""
    server, kernel, nb = opened
    _, error = kernel.run(_cell(nb, "import otter"))
    assert error is None, error
    expected = str(server.root / FOLDER / RENAMED)
    shown, error = kernel.run("import os\nprint(repr(__session__))\n"
                              "print(repr(os.environ['JPY_SESSION_NAME']))\n"
                              "print(repr(os.getcwd()))\nprint(this_notebook())")
    assert error is None, error
    session, variable, cwd, found = shown.splitlines()
    assert eval(session) == eval(variable) == expected
    assert eval(cwd) == str(server.root / FOLDER)
    assert found.startswith(f"('{expected}', 'the notebook Jupyter has open')")


def test_check_and_export_pack_the_renamed_edited_notebook(opened):
    """The answered stub, its public check and the export cell, run in the kernel:
    does the zip hold the renamed file with the answer, and not the handout?"""
    server, kernel, nb = opened
    for needle in ("import otter", f"def {STUB}("):
        _, error = kernel.run(_cell(nb, needle))
        assert error is None, error
    shown, error = kernel.run(f'grader.check("{STUB}")')
    assert error is None and f"{STUB} results: All test cases passed!" in shown, (shown, error)
    shown, error = kernel.run(_cell(nb, EXPORT_CELL))
    assert error is None, error
    zips = sorted((server.root / FOLDER).glob("*.zip"))
    assert len(zips) == 1, shown
    assert f"Packed {server.root / FOLDER / RENAMED}" in shown
    with zipfile.ZipFile(zips[0]) as zf:
        notebooks = [n for n in zf.namelist() if n.endswith(".ipynb")]
        assert notebooks == [RENAMED]
        packed = json.loads(zf.read(RENAMED))
    assert _cell(packed, f"def {STUB}(") == _cell(nb, f"def {STUB}(")
    assert _cell(packed, f"def {STUB}(") != _cell(json.loads(student_notebook(ASSIGNMENT)),
                                                   f"def {STUB}(")
