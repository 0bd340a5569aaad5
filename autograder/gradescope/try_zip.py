"""`python -m autograder try-zip ZIP NOTEBOOK`: a built Gradescope zip run on one
notebook as Gradescope runs it, before the zip is uploaded.

The zip is unpacked into a fresh folder laid out as Gradescope's /autograder
(source/ with the files' modes, submission/ holding the notebook under the name it
was given, submission_metadata.json, an empty results/), and its own run_autograder
runs there with bash, redirected to that folder and to this interpreter (which must
have the zip's requirements: setup.sh's venv is not built). The zip's own source
grades, never this checkout's. Then results.json is printed twice: as the
instructor sees it (every test, the autograder's output) and as the student sees
it, at each moment Gradescope's visibilities name (before the due date, after it,
once grades are published).

Not reproduced here: the container itself (its memory, CPU and user; the test suite
runs zips in a reproduction of it, tests/gradescope/container.py), setup.sh. With
--docker (try_docker.py) they are: an image built by setup.sh, a container at
Gradescope's defaults.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

from autograder.gradescope.run import ERROR_TEST, METADATA

MOMENTS = (("before the due date", {"visible"}),
           ("after the due date", {"visible", "after_due_date"}),
           ("once grades are published", {"visible", "after_due_date", "after_published"}))
"""When a student looks, and the visibilities shown then ("hidden": never)."""
TIME_LIMIT = 600
"""Gradescope's default time for one submission, in seconds."""


class TryError(Exception):
    """A zip or notebook this command cannot run: its message says why."""


def unpack(zip_path: Path, notebook: Path, root: Path, metadata: dict) -> None:
    """Gradescope's layout in `root`: the zip in source/, the notebook in submission/,
    the metadata beside it, results/ empty."""
    unpack_zip(zip_path, root / "source")
    (root / "submission").mkdir()
    (root / "results").mkdir()
    shutil.copyfile(notebook, root / "submission" / notebook.name)
    (root / METADATA).write_text(json.dumps(metadata, indent=2))


def unpack_zip(zip_path: Path, source: Path) -> None:
    """The zip's files in `source`, with the modes it gives them (run_autograder's x), as
    Gradescope unpacks it (tests/gradescope/container.py builds its images so too)."""
    try:
        with zipfile.ZipFile(zip_path) as zf:
            if "run_autograder" not in zf.namelist():
                raise TryError(f"{zip_path} has no run_autograder at its root: not a "
                               "Gradescope autograder zip (build writes build/gradescope/ID.zip)")
            for info in zf.infolist():
                target = (source / info.filename).resolve()
                if not target.is_relative_to(source.resolve()):
                    raise TryError(f"{zip_path}: {info.filename!r} points outside the zip")
                zf.extract(info, source)
                mode = info.external_attr >> 16
                if mode:
                    target.chmod(mode & 0o777)
    except (zipfile.BadZipFile, OSError) as exc:
        raise TryError(f"{zip_path} cannot be read as a zip: {exc}") from exc


def default_metadata(notebook: Path) -> dict:
    """What Gradescope writes for an upload, with made-up ids (--metadata gives a real one)."""
    now = datetime.now(timezone.utc).isoformat(timespec="seconds")
    return {"id": 1, "created_at": now, "submission_method": "upload",
            "assignment": {"title": notebook.stem, "due_date": None},
            "users": [{"name": "Try Zip", "email": "try@example.org", "sid": "0"}],
            "previous_submissions": []}


def run(root: Path, python: str) -> tuple[int, str]:
    """run_autograder in `root` as Gradescope runs it: (its exit status, its output)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # the zip's source only
    env.update(AUTOGRADER_ROOT=str(root), AUTOGRADER_PYTHON=python)
    try:
        proc = subprocess.run(["bash", str(root / "source" / "run_autograder")], env=env,
                              cwd=root, capture_output=True, text=True, errors="replace",
                              timeout=TIME_LIMIT)
    except subprocess.TimeoutExpired:
        return -1, f"run_autograder took more than Gradescope's {TIME_LIMIT} s"
    return proc.returncode, proc.stdout + proc.stderr


def instructor_view(results: dict, output: str) -> list[str]:
    lines = ["As the instructor sees it:", f"  score {results.get('score')}"]
    for t in results.get("tests", []):
        lines.append(f"  [{t.get('visibility', results.get('visibility'))}] {t.get('name')}: "
                     f"{t.get('score')} / {t.get('max_score')}")
    if output.strip():
        lines += ["  autograder output:", *("    " + line for line in output.splitlines())]
    return lines


def student_views(results: dict) -> list[str]:
    """What the student sees at each of MOMENTS: the tests shown (a test's own visibility
    over the top level's), and the total only while no test is hidden from them."""
    top = results.get("visibility", "visible")
    lines = []
    tests = results.get("tests", [])
    for moment, shown in MOMENTS:
        seen = [t for t in tests if t.get("visibility", top) in shown]
        total = (f"score {results.get('score')}" if len(seen) == len(tests) and top in shown
                 else "no total shown (a test is hidden from them)" if len(seen) < len(tests)
                 else "no total shown (the results' visibility)")
        lines.append(f"As a student sees it {moment}: {len(seen)} of {len(tests)} tests, {total}")
        for t in seen:
            lines.append(f"  {t.get('name')}: {t.get('score')} / {t.get('max_score')}")
            lines += ["    " + line for line in str(t.get("output", "")).splitlines()[:12]]
        if top in shown and results.get("output"):
            lines += ["  " + line for line in str(results["output"]).splitlines()]
    return lines


def main(zip_path: Path, notebook: Path, python: str | None = None,
         metadata: Path | None = None, keep: Path | None = None,
         runner: Callable[[Path], tuple[int, str]] | None = None) -> int:
    """0 when the zip graded the notebook (whatever its score), 1 when it could not.
    `runner(root)` runs run_autograder on the unpacked folder (default: `run` with
    `python`; try_docker's runs it in a container) and leaves results/results.json."""
    for path, what in ((zip_path, "zip"), (notebook, "notebook")):
        if not path.is_file():
            print(f"try-zip: no such {what}: {path}", file=sys.stderr)
            return 1
    try:
        given = json.loads(metadata.read_text()) if metadata else default_metadata(notebook)
    except (OSError, ValueError) as exc:
        print(f"try-zip: {metadata} is not a JSON file: {exc}", file=sys.stderr)
        return 1
    root = Path(tempfile.mkdtemp(prefix="autograder-"))
    try:
        unpack(zip_path, notebook, root, given)
        status, output = (runner or (lambda r: run(r, python or sys.executable)))(root)
        path = root / "results" / "results.json"
        if not path.is_file():
            print(f"try-zip: run_autograder (exit {status}) wrote no results.json:\n{output}",
                  file=sys.stderr)
            return 1
        results = json.loads(path.read_text())
        print("\n".join(instructor_view(results, output) + [""] + student_views(results)))
        graded = not any(t.get("name") == ERROR_TEST for t in results.get("tests", []))
        return 0 if graded else 1
    except TryError as exc:
        print(f"try-zip: {exc}", file=sys.stderr)
        return 1
    finally:
        if keep is not None:
            shutil.copytree(root, keep, symlinks=True, dirs_exist_ok=True)
        shutil.rmtree(root, ignore_errors=True)
