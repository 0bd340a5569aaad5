"""`python -m autograder`: a thin command line; each command hands over to
the module that does the work."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from autograder import paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m autograder",
        description="Build and grade the Transformers/BERT notebooks.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    build = commands.add_parser(
        "build", help="regenerate student notebooks and Gradescope zips",
        description="Regenerate assignments/<id>/<id>.ipynb and the Gradescope zip of "
                    "each assignment from solutions/ (all assignments by default).")
    build.add_argument("assignments", nargs="*", metavar="ASSIGNMENT")

    grade = commands.add_parser(
        "grade", help="grade a folder of submissions",
        description="Grade every entry of SUBMISSIONS (.ipynb, folder or .zip), writing "
                    "DIR/grades.csv and DIR/<submission id>/results.json.")
    grade.add_argument("submissions", type=Path, metavar="SUBMISSIONS")
    grade.add_argument("--assignment", required=True, metavar="ID",
                       help=f"one of: {', '.join(paths.known_assignments())}")
    grade.add_argument("--out", required=True, type=Path, metavar="DIR")
    grade.add_argument("--jobs", type=int, default=None,
                       help="submissions graded in parallel (default: one per core)")
    grade.add_argument("--quiet", action="store_true", help="no progress and no table")
    grade.add_argument("--limit", action="append", default=[], metavar="NAME=VALUE",
                       help="override a limit of the grading config, e.g. notebook_seconds=20")

    gradescope = commands.add_parser(
        "run-gradescope", help="grade the one submission of a Gradescope container",
        description="Grade ROOT/submission (Gradescope's layout) and write "
                    "ROOT/results/results.json; run by the zip's run_autograder.")
    gradescope.add_argument("--assignment", required=True, metavar="ID")
    gradescope.add_argument("--root", type=Path, default=Path("/autograder"), metavar="ROOT")

    args = parser.parse_args(argv)
    if args.command == "run-gradescope":
        from autograder.gradescope.run import main as run_gradescope
        return run_gradescope(args.assignment, args.root)
    if args.command == "build":
        from autograder.build import build_all
        return build_all(args.assignments)
    return _grade(args)


def _grade(args) -> int:
    from autograder.engine import batch, summary
    from autograder.engine.config import ConfigError
    if args.assignment not in paths.known_assignments():
        print(f"error: unknown assignment {args.assignment!r}; known: "
              f"{', '.join(paths.known_assignments())}", file=sys.stderr)
        return 2
    if not args.submissions.is_dir():
        print(f"error: {args.submissions} is not a folder of submissions", file=sys.stderr)
        return 2
    try:
        result = batch.grade_folder(args.assignment, args.submissions, args.out,
                                    jobs=args.jobs, progress=not args.quiet,
                                    limits=_limits(args.limit))
    except (ConfigError, TypeError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not args.quiet:
        print(summary.table(result))
    return 0


def _limits(pairs: list[str]) -> dict:
    limits = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise ValueError(f"--limit expects NAME=VALUE, got {pair!r}")
        limits[name.strip()] = float(value) if "." in value else int(value)
    return limits
