"""`python -m autograder run-gradescope`: grade the one submission Gradescope
put in <root>/submission with the same engine as local grading, and write
<root>/results/results.json.

A results file is always written: when the grader itself fails, the student
gets an "Autograder error" test saying what to do, and the traceback goes to
stderr, which Gradescope shows to instructors only.
"""
from __future__ import annotations

import json
import os
import sys
import tempfile
import traceback
from pathlib import Path

from autograder.engine.intake import files, gradescope_export, untrusted
from autograder.engine import results as results_mod
from autograder.engine.intake.notebook import MAX_NOTEBOOK_BYTES
from autograder.engine.intake.submissions import discover, safe_id
from autograder.course import lateness
from autograder.writing import PRIVATE, write_atomic

METADATA = "submission_metadata.json"
"""What Gradescope knows about the submission, written beside the upload's folder."""
MAX_METADATA_BYTES = 2**20
MAX_UPLOAD_BYTES = 256 * 2**20
"""What staging copies of the upload in all: an otter export zip (its notebook is
bounded again inside) or the notebooks; copied in chunks, never held in memory."""
CHUNK = 2**20

ERROR_TEST = "Autograder error"
FAILED = ("The autograder could not grade this submission because of a problem on our side "
          "({kind}), not because of your code. Your upload is saved: resubmit once, and if "
          "this message comes back, tell your instructor.")
NOT_STARTED = FAILED.format(kind="the grader could not start")
INTERRUPTED = ("Grading was interrupted before it finished (the autograder ran out of time or "
               "was stopped). Resubmit once; if this message comes back, tell your instructor.")


class NoSubmission(Exception):
    """Nothing gradable was uploaded; the message is for the student."""


def read_metadata(root: Path) -> dict:
    """Gradescope's <root>/submission_metadata.json (outside the student's
    upload), strings cleaned; {} when absent or unreadable."""
    try:
        data = json.loads(files.read_regular(root / METADATA, MAX_METADATA_BYTES, METADATA))
    except (files.UnreadableFile, ValueError):
        return {}
    return gradescope_export.plain(data) if isinstance(data, dict) else {}


def submission_id(metadata: dict) -> str:
    """Gradescope's submission id, else "submission"."""
    return safe_id(str(metadata["id"])) if "id" in metadata else "submission"


def stage(root: Path, sub_id: str, folder: Path) -> tuple[Path, list[str]]:
    """Copy the upload into `folder` as one engine entry: a folder holding the
    notebook(s), or the otter export zip alone; also the messages about files
    that were not copied (links, pipes: never followed or read)."""
    upload = root / "submission"
    try:
        found = (files.walk(upload) if upload.is_dir() and not upload.is_symlink()
                 else files.Listing())
    except files.UnreadableFile as exc:
        raise NoSubmission(str(exc)) from None
    notebooks = [f for f in found.files if f.lower().endswith(".ipynb")]
    zips = [f for f in found.files if f.lower().endswith(".zip")]
    refused = list(found.refused)
    if notebooks:
        entry, budget, copied = folder / sub_id, MAX_UPLOAD_BYTES, 0
        for nb in notebooks:
            if budget < MAX_NOTEBOOK_BYTES:
                refused.append(f"more than {MAX_UPLOAD_BYTES // 2**20} MB of notebooks were "
                               "uploaded; the others were not read")
                break
            size = _copy(upload / nb, entry / nb, MAX_NOTEBOOK_BYTES, refused)
            if size is not None:
                budget -= size
                copied += 1
        if copied:
            return entry, refused
    elif len(zips) == 1 and _copy(upload / zips[0], folder / f"{sub_id}.zip",
                                  MAX_UPLOAD_BYTES, refused) is not None:
        return folder / f"{sub_id}.zip", refused
    if refused:
        raise NoSubmission(f"your submission could not be read: {refused[0]}")
    listed = ", ".join(untrusted.name(f) for f in found.files[:5]) or "nothing"
    raise NoSubmission(f"no notebook found in your submission (found: {listed}). Upload your "
                       ".ipynb file, or the zip made by the notebook's export cell.")


def _copy(source: Path, target: Path, limit: int, refused: list[str]) -> int | None:
    """Copy a regular file of at most `limit` bytes, in chunks, never through a
    link; the bytes copied, or None (and why, in `refused`) when it is not copied."""
    label = untrusted.name(source.name)
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        with files.open_regular(source, label) as f, open(target, "xb") as out:
            size = 0
            while chunk := f.read(min(CHUNK, limit + 1 - size)):
                size += len(chunk)
                if size > limit:
                    raise files.UnreadableFile(f"{label} is larger than {limit // 2**20} MB")
                out.write(chunk)
    except files.UnreadableFile as exc:
        target.unlink(missing_ok=True)
        refused.append(str(exc))
        return None
    return size


def grade(assignment_id: str, root: Path, limits: dict | None = None,
          allow_unsafe: bool = False) -> dict:
    """Grade the submission under `root`; the Gradescope results as a dict.
    Gradescope's metadata reaches the engine on the entry, never as a file
    beside the student's notebook."""
    from autograder.engine import batch
    metadata = read_metadata(root)
    with tempfile.TemporaryDirectory(prefix="gradescope-") as tmp:
        folder = Path(tmp) / "submissions"
        folder.mkdir()
        path, refused = stage(root, submission_id(metadata), folder)
        entries, _ = discover(folder)
        if len(entries) != 1 or entries[0].path != path:
            raise RuntimeError(f"staging made {len(entries)} entries")
        entries[0].metadata = metadata
        entries[0].notes[:0] = refused[:3]
        graded = batch.grade_folder(assignment_id, folder, Path(tmp) / "out", jobs=1,
                                    progress=False, limits=limits, entries=entries,
                                    allow_unsafe=allow_unsafe, secrets=close_secrets(root))
        if len(graded.results) != 1:
            raise RuntimeError(f"expected one result, got {len(graded.results)}")
        result = graded.results[0]
        late = lateness.status_line(lateness.timing(result, None, None))
        if late:
            result.notes.insert(0, late)
        return results_mod.to_gradescope(result, graded.assignment.config.gradescope.results)


def close_secrets(root: Path) -> tuple[Path, ...]:
    """What Gradescope keeps beside the upload that a worker must not read: the
    results folder (Gradescope writes the grader's output there, for
    instructors) and the metadata (earlier submissions' results among it),
    closed to other users, since in a mode whose wall is file permissions
    (kernel/modes.py) that is what keeps them out; the grader reads them as root."""
    found = tuple(p for p in (root / "results", root / METADATA) if os.path.lexists(p))
    for path in found:
        try:
            if not path.is_symlink():
                path.chmod(path.stat().st_mode & 0o700)
        except OSError:
            pass  # judged as it is when the sandbox is chosen
    return found


def error_results(assignment_id: str, message: str) -> dict:
    """A zero score with one visible test explaining what happened; the same
    result, with NOT_STARTED, is what run_autograder writes when Python
    cannot start (package.render_script puts it there)."""
    return results_mod.gradescope_error(ERROR_TEST, message, _max_total(assignment_id))


def _max_total(assignment_id: str) -> float:
    try:
        from autograder.engine import assignment
        return float(assignment.load(assignment_id).max_total)
    except Exception:
        return 0.0


def main(*, assignment_id: str, root: Path, limits: dict | None = None,
         allow_unsafe: bool = False) -> int:
    """Always leaves <root>/results/results.json; returns 0 when it could be written."""
    data = error_results(assignment_id, INTERRUPTED)
    try:
        data = grade(assignment_id, root, limits, allow_unsafe=allow_unsafe)
    except NoSubmission as exc:
        data = error_results(assignment_id, str(exc))
    except Exception as exc:  # the grader's own failure: detail to stderr, advice to the student
        traceback.print_exc(file=sys.stderr)
        data = error_results(assignment_id, FAILED.format(kind=type(exc).__name__))
    finally:  # also when interrupted: a results file in every case
        write_atomic(root / "results" / "results.json",  # Gradescope reads it as root
                     json.dumps(data, indent=2) + "\n", PRIVATE)
    return 0
