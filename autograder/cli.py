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
        description="Build and grade the Transformers/BERT notebooks.",
        epilog="Run `python -m autograder COMMAND --help` for a command's options. "
               "The demo: python -m autograder grade examples/hw1_attention "
               "--assignment hw1_attention --out out/hw1_attention")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    build = commands.add_parser(
        "build", help="regenerate student notebooks and Gradescope zips",
        description="Regenerate assignments/<id>/<id>.ipynb and the Gradescope zip of "
                    "each assignment from solutions/ (all assignments by default).")
    build.add_argument("assignments", nargs="*", metavar="ASSIGNMENT",
                       help="assignment ids to build (default: all)")
    build.add_argument("--torch-wheel", type=Path, metavar="FILE",
                       help="a CPU build of torch 2.13.0 (torch-2.13.0+cpu-cp311-...whl) to "
                            "ship in the Gradescope zips, so that the image installs it instead "
                            "of PyPI's CUDA build")

    grade = commands.add_parser(
        "grade", help="grade a folder of submissions",
        description="Grade every entry of SUBMISSIONS (.ipynb, folder or .zip), writing "
                    "DIR/grades.csv and DIR/<submission id>/results.json, the students' "
                    "feedback DIR/<submission id>/feedback.md and .html, the gradebooks "
                    "DIR/gradebook.csv and DIR/canvas.csv, the class report DIR/report.html "
                    "and, when DIR held an earlier run, DIR/regrade.md (whose scores changed "
                    "and why).",
        epilog="example: python -m autograder grade examples/hw1_attention "
               "--assignment hw1_attention --out out/hw1_attention")
    grade.add_argument("submissions", type=Path, metavar="SUBMISSIONS",
                       help="folder with one .ipynb, folder or .zip per student; the "
                            "entry's name is the submission id")
    grade.add_argument("--assignment", required=True, metavar="ID",
                       help=f"one of: {', '.join(paths.known_assignments())}")
    grade.add_argument("--out", required=True, type=Path, metavar="DIR",
                       help="where results and reports go; grading into the folder of an "
                            "earlier run writes DIR/regrade.md")
    grade.add_argument("--jobs", type=int, default=None,
                       help="submissions graded in parallel (default: one per core)")
    grade.add_argument("--quiet", action="store_true", help="no progress and no table")
    grade.add_argument("--limit", action="append", default=[], metavar="NAME=VALUE",
                       help="override a limit of the grading config, e.g. notebook_seconds=20")
    grade.add_argument("--roster", type=Path, default=None, metavar="FILE",
                       help="CSV of the class (a Canvas gradebook export works): the "
                            "gradebook then lists every student, missing ones as missing")
    grade.add_argument("--unsafe-no-sandbox", action="store_true",
                       help="grade even where no sandbox works (student code then runs with "
                            "your permissions and network); without it grading is refused "
                            "there, with a message saying what to enable")
    grade.add_argument("--due", default=None, metavar="DATETIME",
                       help="due date, e.g. 2026-03-01T23:59 (local time) or with +01:00; "
                            "later submissions show as late (default: Gradescope's due date)")

    gradescope = commands.add_parser(
        "run-gradescope", help="grade the one submission of a Gradescope container",
        description="Grade ROOT/submission (Gradescope's layout) and write "
                    "ROOT/results/results.json; run by the zip's run_autograder.")
    gradescope.add_argument("--assignment", required=True, metavar="ID",
                            help="the assignment the container grades")
    gradescope.add_argument("--root", type=Path, default=Path("/autograder"), metavar="ROOT",
                            help="Gradescope's folder (default: /autograder)")
    gradescope.add_argument("--unsafe-no-sandbox", action="store_true",
                            help="grade even where no sandbox works (see grade --help)")

    bench = commands.add_parser(
        "bench", help="time our grader against `otter run` on generated submissions",
        description="Grade N generated submissions of each assignment with this grader "
                    "and the first M with `otter run`; print per-submission medians, the "
                    "ratio and peak memory. A benchmark: it never fails on a slow machine.")
    bench.add_argument("--assignment", action="append", default=[], metavar="ID",
                       help="repeatable (default: every assignment with a master notebook)")
    bench.add_argument("-n", type=int, default=50, help="submissions for our grader")
    bench.add_argument("--otter-n", type=int, default=10, help="submissions for `otter run`")
    bench.add_argument("--skip-otter", action="store_true", help="time our grader only")
    bench.add_argument("--jobs", type=int, default=None,
                       help="submissions graded in parallel (default: one per core)")
    bench.add_argument("--seed", type=int, default=0, help="seed of the generated submissions")
    bench.add_argument("--keep", type=Path, default=None, metavar="DIR",
                       help="keep the generated submissions and results in DIR")

    if not (sys.argv[1:] if argv is None else argv):
        parser.print_help(sys.stderr)  # no command: say what there is, still an error
        return 2
    args = parser.parse_args(argv)
    if args.command == "run-gradescope":
        from autograder.gradescope.run import main as run_gradescope
        return run_gradescope(args.assignment, args.root, allow_unsafe=args.unsafe_no_sandbox)
    if args.command == "bench":
        from autograder.bench import main as run_bench
        return run_bench(assignments=args.assignment, n=args.n, otter_n=args.otter_n,
                         skip_otter=args.skip_otter, seed=args.seed, jobs=args.jobs,
                         keep=args.keep)
    if args.command == "build":
        from autograder.build import build_all
        return build_all(args.assignments, args.torch_wheel)
    return _grade(args)


def _grade(args) -> int:
    from autograder.engine import batch, summary
    from autograder.engine.config import ConfigError
    from autograder.engine.sandbox import SandboxUnavailable
    from autograder.report import run as report_run
    from autograder.report.roster import RosterError
    if args.assignment not in paths.known_assignments():
        print(f"error: unknown assignment {args.assignment!r}; known: "
              f"{', '.join(paths.known_assignments())}", file=sys.stderr)
        return 2
    if not args.submissions.is_dir():
        print(f"error: {args.submissions} is not a folder of submissions", file=sys.stderr)
        return 2
    if args.out.exists() and not args.out.is_dir():
        print(f"error: --out {args.out} is a file; give a folder (it is created if needed)",
              file=sys.stderr)
        return 2
    if args.jobs is not None and args.jobs < 1:
        print("error: --jobs must be 1 or more", file=sys.stderr)
        return 2
    try:
        prepared = report_run.prepare(args.out, args.roster, args.due)
    except (RosterError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        result = batch.grade_folder(args.assignment, args.submissions, args.out,
                                    jobs=args.jobs, progress=not args.quiet,
                                    limits=_limits(args.limit),
                                    allow_unsafe=args.unsafe_no_sandbox)
    except (ConfigError, SandboxUnavailable, TypeError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    result.reports.extend(_reports(result, args.submissions, prepared))
    if not args.quiet:
        print(summary.table(result))
    return 0


def _reports(result, submissions: Path, prepared) -> list[str]:
    """Feedback, gradebooks, class report, regrade diff: grades.csv is written
    already, so a failure here is reported, not fatal."""
    from autograder.report import run as report_run
    try:
        return report_run.write_all(result, submissions, prepared)
    except Exception as exc:  # a bug of ours: the grades stand, say what is missing
        import traceback
        traceback.print_exc()
        return [f"warning: the reports could not be written ({type(exc).__name__}: {exc}); "
                "grades.csv and results.json are complete"]


def _limits(pairs: list[str]) -> dict:
    from dataclasses import fields

    from autograder.engine.config import Limits
    known = [f.name for f in fields(Limits)]
    limits = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise ValueError(f"--limit expects NAME=VALUE, got {pair!r}")
        if name.strip() not in known:
            raise ValueError(f"--limit {pair}: unknown limit {name.strip()!r}; "
                             f"known: {', '.join(known)}")
        try:
            limits[name.strip()] = float(value) if "." in value else int(value)
        except ValueError:
            raise ValueError(f"--limit {pair}: the value must be a number") from None
    return limits
