"""Maintainer tool: write tests/assignments/snapshots/<id>.json, the graded results of each
assignment's corpus and examples that tests/assignments/test_snapshot.py compares with.

    .venv/bin/python scripts/results_snapshot.py [ASSIGNMENT ...]

Run it only when the hidden tests (or the examples, or the corpus) changed on
purpose, and review the diff: a refactor must leave every snapshot unchanged.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.assignments import snapshot_tools  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("assignments", nargs="*", help="default: every assignment")
    args = parser.parse_args(argv)
    ids = args.assignments or snapshot_tools.ASSIGNMENTS
    snapshot_tools.SNAPSHOTS.mkdir(exist_ok=True)
    for assignment_id in ids:
        with tempfile.TemporaryDirectory() as tmp:
            snapshot = snapshot_tools.graded(assignment_id, Path(tmp))
        snapshot_tools.path(assignment_id).write_text(snapshot_tools.dumps(snapshot))
        print(f"wrote {snapshot_tools.path(assignment_id)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
