"""`python -m autograder build`: student notebooks, Gradescope zips and demo
submissions, regenerated from solutions/<id>/<id>.py.

    master (jupytext py:percent, otter assign format)
      -> paste lines filled, points written           (autograder.build.copies, .points)
      -> otter assign in a temporary folder           (autograder.build.assign)
      -> student notebook -> STUDENT_PIPELINE         (autograder.build.transforms)
      -> graded with the solution: every point / none (autograder.build.selfcheck)
      -> assignments/<id>/<id>.ipynb                  (byte-identical on every build)
      -> build/gradescope/<id>.zip                    (autograder.gradescope.package)
      -> examples/<id>/*                              (autograder/<id>/examples.py, if any;
                                                       autograder.build.examples)

The public tests travel inside the student notebook's metadata (otter's
`tests: files: false`); no tests/ folder is shipped beside it.
"""
from __future__ import annotations

import copy
import functools
import inspect
import hashlib
import sys
from dataclasses import dataclass
from pathlib import Path

import nbformat

from autograder import paths, registry
from autograder.build import copies
from autograder.build.transforms import (SOLUTION_PIPELINE, STUDENT_PIPELINE, BuildError,
                                         ExportOffColab, InstallOtter, ShareAnswerFormats,
                                         SubmitWhere, WritePoints, apply, pinned, serialise)


def _assign(assignment_id: str):
    """otter assign's output for the master as it is now (cached by content)."""
    record = registry.get(assignment_id)
    master, config = record.master, record.config
    if not master.is_file():
        raise BuildError(f"no master notebook {paths.relative(master)}")
    sources = master.read_bytes() + (config.read_bytes() if config.is_file() else b"")
    sources += b"".join(p.read_bytes() for p in copies.sources(master.read_text()))
    return assign_cached(assignment_id, hashlib.sha256(sources).hexdigest())


@functools.lru_cache(maxsize=8)
def assign_cached(assignment_id: str, sources_sha256: str):
    """One otter assign run per content of master, config and pasted files
    (points come from the config); `assign_cached.cache_clear()` to redo."""
    from autograder.build.assign import run_otter_assign
    return run_otter_assign(registry.get(assignment_id).master)


def student_notebook(assignment_id: str) -> bytes:
    """The canonical bytes of the student notebook."""
    nb = copy.deepcopy(_assign(assignment_id).student)
    return serialise(apply(nb, course_transforms(assignment_id) + STUDENT_PIPELINE))


def solution_notebook(assignment_id: str) -> nbformat.NotebookNode:
    """The master as a notebook: solutions kept, markers stripped, test cells
    replaced by grader.check cells (for tests and demo submissions)."""
    nb = copy.deepcopy(_assign(assignment_id).autograder)
    return apply(nb, course_transforms(assignment_id) + SOLUTION_PIPELINE)


def course_transforms(assignment_id: str) -> list:
    """What both notebooks get first: the setup cell installing otter-grader at
    the version requirements.txt pins (and finding the notebook's own file), the
    export cell packing that file (or, on Colab, saying how to download it), each
    question's points and the place to hand in from the grading config, and the
    public checks' copy of exam/formats.py (the whole module as it is)."""
    from autograder.build.assign import load_config
    from autograder.exam import formats
    otter = pinned("otter-grader", (paths.ROOT / "requirements.txt").read_text())
    config = load_config(assignment_id)
    points = {q: config.max_points(q) for q in config.questions}
    points.update({q: m.points for q, m in config.manual.items()})
    return [InstallOtter(otter), ExportOffColab(), SubmitWhere(submit_sentence(assignment_id)),
            WritePoints(points), ShareAnswerFormats(inspect.getsource(formats))]


def submit_sentence(assignment_id: str) -> str:
    """What the submit cell says: how to export, where to upload ([submit] of the
    grading config) and, where names matter, to keep the file's name."""
    from autograder.build.assign import load_config
    submit = load_config(assignment_id).submit
    place = {"": "where your course asks you to", "Gradescope": "to Gradescope",
             "Canvas": "to this assignment on Canvas"}.get(submit.to, f"at {submit.to}")
    text = (f"Save this notebook, then run this cell: it makes a zip of this notebook's file "
            f"(whatever its name). Upload the zip (or the .ipynb) {place}.")
    if submit.keep_name:
        text += f" Keep this file's name, `{assignment_id}.ipynb`: that is how it is found there."
    return text


@dataclass
class Built:
    notebook: Path
    changed: bool
    zip: Path
    examples: list[Path]


def build_assignment(assignment_id: str, torch_wheel: Path | None = None) -> Built:
    """Check the hidden tests (against the config and against their own answers),
    then write the student notebook, the zip and the examples."""
    from autograder.build import examples, selfcheck
    from autograder.gradescope import package
    check_hidden_tests(assignment_id)
    data = student_notebook(assignment_id)
    solution = solution_notebook(assignment_id)
    found = selfcheck.problems(assignment_id, solution, data)
    if found:
        raise BuildError("the hidden tests disagree with their own answers, so nothing was "
                         "written:\n  " + "\n  ".join(found))
    selfcheck.mark_checked(assignment_id)
    target = registry.get(assignment_id).student_notebook
    changed = not target.is_file() or target.read_bytes() != data
    if changed:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    zip_path = package.write_zip(assignment_id, registry.get(assignment_id).gradescope_zip,
                                 torch_wheel)
    demo = examples.write_examples(assignment_id, data, solution)
    return Built(target, changed, zip_path, demo)


def check_hidden_tests(assignment_id: str) -> None:
    """The grading config and the hidden tests agree (as `grade` requires);
    raises BuildError with the message `grade` would give."""
    from autograder.engine import assignment as assignment_mod
    from autograder.engine.config import ConfigError
    try:
        assignment_mod.load(assignment_id)
    except ConfigError as exc:
        raise BuildError(str(exc)) from None


def main(*, assignments: list[str] = (), torch_wheel: Path | None = None) -> int:
    """Build the given assignments (all with a master when empty); 0 on success.
    `torch_wheel`: a CPU torch wheel to ship in the Gradescope zips."""
    if torch_wheel is not None and not torch_wheel.name.startswith("torch-"):
        print(f"error: {torch_wheel} is not a torch wheel", file=sys.stderr)
        return 2
    if torch_wheel is not None and not torch_wheel.is_file():
        print(f"error: no such file {torch_wheel}", file=sys.stderr)
        return 2
    buildable = [a.id for a in registry.all_assignments() if a.has_master]
    ids = list(assignments) or buildable
    if not ids:
        print("error: no master notebooks under solutions/", file=sys.stderr)
        return 2
    missing = [i for i in ids if not registry.get(i).has_master]
    if missing:
        print(f"error: no master notebook for {', '.join(missing)} "
              f"(expected solutions/<id>/<id>.py; have: {', '.join(buildable) or 'none'})",
              file=sys.stderr)
        return 2
    status = 0
    for assignment_id in ids:
        try:
            built = build_assignment(assignment_id, torch_wheel)
        except BuildError as exc:
            print(f"error: {assignment_id}: {exc}", file=sys.stderr)
            status = 1
            continue
        state = "updated" if built.changed else "unchanged"
        print(f"{assignment_id}: {paths.relative(built.notebook)} ({state}), "
              f"{paths.relative(built.zip)}, {len(built.examples)} examples in "
              f"{paths.relative(registry.get(assignment_id).examples)}")
    return status
