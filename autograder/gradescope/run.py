"""`python -m autograder run-gradescope`: grade the one submission Gradescope
put in <root>/submission with the same engine as local grading, and write
<root>/results/results.json.

A results file is always written: when the grader itself fails, the student
gets an "Autograder error" test saying what to do, and the traceback goes to
stderr, which Gradescope shows to instructors only.
"""
from __future__ import annotations

import json
import shutil
import sys
import tempfile
import traceback
from pathlib import Path

from autograder.engine import results as results_mod
from autograder.engine.submissions import IGNORED_DIRS, safe_id

ERROR_TEST = "Autograder error"
FAILED = ("The autograder could not grade this submission because of a problem on our side "
          "({kind}), not because of your code. Your upload is saved: resubmit once, and if "
          "this message comes back, tell your instructor.")
INTERRUPTED = ("Grading was interrupted before it finished (the autograder ran out of time or "
               "was stopped). Resubmit once; if this message comes back, tell your instructor.")


class NoSubmission(Exception):
    """Nothing gradable was uploaded; the message is for the student."""


def submission_id(root: Path) -> str:
    """Gradescope's submission id from submission_metadata.json, if any."""
    try:
        meta = json.loads((root / "submission_metadata.json").read_text(encoding="utf-8"))
        return safe_id(str(meta["id"])) if isinstance(meta, dict) and "id" in meta else "submission"
    except (OSError, ValueError, KeyError):
        return "submission"


def stage(root: Path, sub_id: str, folder: Path) -> Path:
    """Copy the upload into `folder` as one engine entry: a folder holding the
    notebook(s) (and the metadata), or the otter export zip alone."""
    upload = root / "submission"
    files = [p for p in sorted(upload.rglob("*")) if p.is_file()
             and not IGNORED_DIRS & set(p.relative_to(upload).parts)] if upload.is_dir() else []
    notebooks = [p for p in files if p.suffix.lower() == ".ipynb"]
    zips = [p for p in files if p.suffix.lower() == ".zip"]
    if notebooks:
        entry = folder / sub_id
        for nb in notebooks:
            target = entry / nb.relative_to(upload)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(nb, target)
        if (root / "submission_metadata.json").is_file():
            shutil.copyfile(root / "submission_metadata.json", entry / "submission_metadata.json")
        return entry
    if len(zips) == 1:
        entry = folder / f"{sub_id}.zip"
        shutil.copyfile(zips[0], entry)
        return entry
    found = ", ".join(p.name for p in files[:5]) or "nothing"
    raise NoSubmission(f"no notebook found in your submission (found: {found}). "
                       "Upload your .ipynb file, or the zip made by the notebook's export cell.")


def grade(assignment_id: str, root: Path, limits: dict | None = None,
          allow_unsafe: bool = False) -> dict:
    """Grade the submission under `root`; the Gradescope results as a dict."""
    from autograder.engine import batch
    sub_id = submission_id(root)
    with tempfile.TemporaryDirectory(prefix="gradescope-") as tmp:
        folder = Path(tmp) / "submissions"
        folder.mkdir()
        stage(root, sub_id, folder)
        graded = batch.grade_folder(assignment_id, folder, Path(tmp) / "out", jobs=1,
                                    progress=False, limits=limits, allow_unsafe=allow_unsafe)
        if len(graded.results) != 1:
            raise RuntimeError(f"expected one result, got {len(graded.results)}")
        return results_mod.to_gradescope(graded.results[0])


def error_results(assignment_id: str, message: str) -> dict:
    """A zero score with one visible test explaining what happened."""
    return {
        "score": 0.0,
        "output": message,
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "tests": [{"name": ERROR_TEST, "score": 0.0, "max_score": _max_total(assignment_id),
                   "status": "failed", "visibility": "visible", "output": message}],
    }


def _max_total(assignment_id: str) -> float:
    try:
        from autograder.engine import assignment
        return float(assignment.load(assignment_id).max_total)
    except Exception:
        return 0.0


def main(assignment_id: str, root: Path, limits: dict | None = None,
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
        results_mod.write_atomic(root / "results" / "results.json",
                                 json.dumps(data, indent=2) + "\n")
    return 0
