"""What a grading run keeps so that `--resume` can finish it, locally
(engine/batch.py) or on a cluster (cluster/client.py): one mechanism for both.

Each result is kept whole (results.to_plain) in DIR/.results/<id>.json,
written before DIR/<id>/results.json, outside the students' folders (it
holds what hidden tests record for the instructor only). A submission is
complete when both files exist, agree and match the assignment's tests;
anything else is graded again.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from autograder.engine import results
from autograder.engine.results import SubmissionResult
from autograder.writing import PRIVATE, write_atomic

FOLDER = ".results"


def keep(out: Path, result: SubmissionResult, shown: str = "after_published") -> None:
    """Write `result` as the run's record, then its results.json (`shown`: its
    top-level visibility, the config's [gradescope] results)."""
    write_atomic(out / FOLDER / f"{result.submission}.json",
                 json.dumps(results.to_plain(result)) + "\n", PRIVATE)  # the grader's own
    results.write_results_json(out / result.submission / "results.json", result, shown)


def completed(out: Path, assignment, ids: list[str]) -> dict[str, SubmissionResult]:
    """{id: result} for the submissions among `ids` that DIR holds complete."""
    found = {}
    for sid in ids:
        result = _complete(out, assignment, sid)
        if result is not None:
            found[sid] = result
    return found


def _complete(out: Path, assignment, sid: str) -> SubmissionResult | None:
    try:
        record = (out / FOLDER / f"{sid}.json").read_text(encoding="utf-8")
        written = json.loads((out / sid / "results.json").read_text(encoding="utf-8"))
        result = results.from_plain(json.loads(record))
    except (OSError, ValueError, TypeError):
        return None  # absent, half-written by hand, or not ours: graded again
    tests = [(t.question, t.name, t.max_score) for t in result.tests]
    if (result.submission, result.assignment) != (sid, assignment.id) or tests != [
            (c.question, c.name, c.points) for c in assignment.cases]:
        return None  # another submission's or another version's record
    shown = assignment.config.gradescope.results
    if json.loads(json.dumps(results.to_gradescope(result, shown))) != written:
        return None  # results.json is not this record's
    return result


def begin(out: Path, assignment, ids: list[str], resuming: bool
          ) -> tuple[dict[str, SubmissionResult], list[str]]:
    """At the start of a run into `out`: with `resuming`, the complete results
    it keeps ({id: result}) and the line that says so; without, none, and the
    records of an earlier run are forgotten, so that resuming this one, if it
    is interrupted, never keeps a result this run did not give."""
    if not resuming:
        shutil.rmtree(out / FOLDER, ignore_errors=True)
        return {}, []
    kept = completed(out, assignment, ids)
    return kept, [f"resuming: {len(kept)} of {len(ids)} submissions are complete in {out}; "
                  f"grading the other {len(ids) - len(kept)}"]
