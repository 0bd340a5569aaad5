"""Running otter-grader's assign machinery on a jupytext master.

py:percent master -> .ipynb in a temporary folder -> `otter.assign.main`
-> (student notebook, autograder notebook), read back as NotebookNodes.
Otter writes the public tests into the student notebook's metadata
(`tests: files: false` in the master's ASSIGNMENT CONFIG), so the notebook
alone is enough for `grader.check` in plain Jupyter.
"""
from __future__ import annotations

import contextlib
import io
import logging
import tempfile
from dataclasses import dataclass
from pathlib import Path

import jupytext
import nbformat

from autograder.build.transforms import BuildError


@dataclass
class AssignOutput:
    student: nbformat.NotebookNode
    """Solutions replaced by `...`, tests moved to metadata, grader.check cells added."""
    autograder: nbformat.NotebookNode
    """The same notebook with its solutions kept (still marked)."""


def run_otter_assign(master: Path) -> AssignOutput:
    """Assign `master` (solutions/<id>/<id>.py) in a temporary folder."""
    if not master.is_file():
        raise BuildError(f"no master notebook at {master}")
    with tempfile.TemporaryDirectory(prefix="autograder-build-") as tmp:
        source = Path(tmp) / "master" / f"{master.stem}.ipynb"
        source.parent.mkdir()
        nb = jupytext.read(master, fmt="py:percent")
        nbformat.write(nb, str(source))
        dist = Path(tmp) / "dist"
        _quiet_assign(source, dist)
        student = dist / "student" / source.name
        autograder = dist / "autograder" / source.name
        if not student.is_file() or not autograder.is_file():
            raise BuildError(f"otter assign wrote no notebooks for {master}")
        return AssignOutput(nbformat.read(str(student), as_version=4),
                            nbformat.read(str(autograder), as_version=4))


def _quiet_assign(source: Path, dist: Path) -> None:
    """otter.assign.main, with its chatter kept unless it fails."""
    from otter.assign import main as assign_main
    chatter = io.StringIO()
    otter_log = logging.getLogger("otter")
    level = otter_log.level
    otter_log.setLevel(logging.WARNING)
    try:
        with contextlib.redirect_stdout(chatter), contextlib.redirect_stderr(chatter):
            assign_main(str(source), str(dist), no_pdfs=True, no_run_tests=True)
    except Exception as exc:
        raise BuildError(f"otter assign failed on {source.name}: {exc}\n"
                         f"{chatter.getvalue()[-2000:]}") from exc
    finally:
        otter_log.setLevel(level)
