"""Running otter-grader's assign machinery on a jupytext master.

py:percent master -> its paste lines filled (autograder.build.copies) ->
the config's points written into its questions (autograder.build.points) -> .ipynb in a temporary folder ->
`otter.assign.main` -> (student notebook, autograder notebook), read back
as NotebookNodes.
Otter writes the public tests into the student notebook's metadata
(`tests: files: false` in the master's ASSIGNMENT CONFIG), so the notebook
alone is enough for `grader.check` in plain Jupyter.
"""
from __future__ import annotations

import contextlib
import io
import logging
import re
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

import jupytext
import nbformat

from autograder.build import copies, points
from autograder.build.transforms import BuildError
from autograder.engine.config import ConfigError
from autograder.engine.config import load as _load_config


def load_config(assignment_id: str):
    """The grading config; a missing or broken one is a BuildError."""
    try:
        return _load_config(assignment_id)
    except ConfigError as exc:
        raise BuildError(str(exc)) from None


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
        dist = assign_into(master, Path(tmp))
        student = dist / "student" / f"{master.stem}.ipynb"
        autograder = dist / "autograder" / f"{master.stem}.ipynb"
        if not student.is_file() or not autograder.is_file():
            raise BuildError(f"otter assign wrote no notebooks for {master}")
        return AssignOutput(nbformat.read(str(student), as_version=4),
                            nbformat.read(str(autograder), as_version=4))


def assign_into(master: Path, work: Path, generate: bool = False) -> Path:
    """otter assign on `master` into work/dist (returned). With `generate`,
    otter also writes its own autograder zip to dist/autograder/ (the speed
    benchmark grades with it)."""
    text = copies.filled(master.read_text())
    if generate:  # switch on the ASSIGNMENT CONFIG's `generate` key
        if re.search(r"^# generate:.*$", text, re.M):
            text = re.sub(r"^# generate:.*$", "# generate: true", text, count=1, flags=re.M)
        else:
            text = text.replace("# # ASSIGNMENT CONFIG", "# # ASSIGNMENT CONFIG\n# generate: true", 1)
    source = work / "master" / f"{master.stem}.ipynb"
    source.parent.mkdir(parents=True, exist_ok=True)
    nb = jupytext.reads(text, fmt="py:percent")
    points.apply(nb, load_config(master.stem))  # the config's points, into each question
    nbformat.write(nb, str(source))
    dist = work / "dist"
    _quiet_assign(source, dist)
    return dist


_ASSIGNING = threading.Lock()
"""One otter assign at a time: each points otter's `tempfile` at its own folder."""


class _TempfileUnder:
    """The `tempfile` otter.assign.output sees: its folders made under `folder`.
    otter assign copies the public tests into a folder of its own, made with
    tempfile.mkdtemp(), and removes it only when it also generates its autograder zip:
    every build left one in the machine's temporary folder."""

    def __init__(self, folder: Path):
        self.folder = folder

    def mkdtemp(self, suffix=None, prefix=None, dir=None):
        return tempfile.mkdtemp(suffix, prefix, self.folder)

    def __getattr__(self, name):
        return getattr(tempfile, name)


def _quiet_assign(source: Path, dist: Path) -> None:
    """otter.assign.main, with its chatter kept unless it fails, and its temporary
    folder inside dist's parent (removed with it)."""
    from otter.assign import main as assign_main
    from otter.assign import output as otter_output
    chatter = io.StringIO()
    otter_log = logging.getLogger("otter")
    level = otter_log.level
    otter_log.setLevel(logging.WARNING)
    try:
        with _ASSIGNING, contextlib.redirect_stdout(chatter), \
                contextlib.redirect_stderr(chatter):
            otter_output.tempfile = _TempfileUnder(dist.parent)
            try:
                assign_main(str(source), str(dist), no_pdfs=True, no_run_tests=True)
            finally:
                otter_output.tempfile = tempfile
    except Exception as exc:
        raise BuildError(f"otter assign failed on {source.name}: {exc}\n"
                         f"{chatter.getvalue()[-2000:]}") from exc
    finally:
        otter_log.setLevel(level)
