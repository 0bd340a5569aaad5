"""`python -m autograder`: a thin command line; each command hands over to
the module that does the work.

Each verb is two functions side by side: `_declare_VERB` adds its subparser
and options, `_run_VERB` hands the parsed arguments to its module. `VERBS`
lists them in the order `--help` shows; `main` only builds the top-level
parser from that list and dispatches, so a new verb or option touches one
place."""
from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple, NoReturn

from autograder import registry
from autograder.grade import MAX_JOBS, UsageError, parse_number
from autograder.grade_options import GradeOptions

Fail = Callable[[str], NoReturn]
"""The top-level parser's `error`: a misuse found after parsing reads (and
exits 2) as one argparse found itself."""


class Verb(NamedTuple):
    """A command: `declare` adds its subparser to the top-level parser's
    subparsers, `run` runs the parsed arguments and returns the exit status."""
    declare: Callable[[argparse._SubParsersAction], argparse.ArgumentParser]
    run: Callable[[argparse.Namespace, Fail], int]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m autograder",
        description="Build and grade the Transformers/BERT notebooks.",
        epilog="Run `python -m autograder COMMAND --help` for a command's options. "
               "The demo: python -m autograder grade examples/hw1_attention "
               "--assignment hw1_attention --out out/hw1_attention")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for verb in VERBS:
        verb.declare(commands).set_defaults(run=verb.run)
    if not (sys.argv[1:] if argv is None else argv):
        parser.print_help(sys.stderr)  # no command: say what there is, still an error
        return 2
    args = parser.parse_args(argv)
    return args.run(args, parser.error)


# build ------------------------------------------------------------------------

def _declare_build(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:
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
    return build


def _run_build(args: argparse.Namespace, fail: Fail) -> int:
    from autograder.build import main as build
    return build(assignments=args.assignments, torch_wheel=args.torch_wheel)


# new --------------------------------------------------------------------------

def _declare_new(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:
    new = commands.add_parser(
        "new", help="write a working skeleton of a new assignment",
        description="Write a new assignment's master (solutions/ID/ID.py, one stub with a "
                    "public check), reference, one hidden test, demo submissions and "
                    "grading_config/ID.toml; `build ID` and `grade ... --assignment ID` "
                    "accept it at once. Nothing existing is overwritten.",
        epilog="example: python -m autograder new hw7_layernorm && "
               "python -m autograder build hw7_layernorm")
    new.add_argument("id", metavar="ID", help="the new assignment's id, e.g. hw7_layernorm")
    new.add_argument("--title", default=None, metavar="TEXT",
                     help="its title (default: 'ID: a new assignment')")
    return new


def _run_new(args: argparse.Namespace, fail: Fail) -> int:
    from autograder.build.scaffold import main as new_assignment
    return new_assignment(assignment_id=args.id, title=args.title)


# grade ------------------------------------------------------------------------

def _declare_grade(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:
    grade = commands.add_parser(
        "grade", help="grade a folder of submissions",
        description="Grade every entry of SUBMISSIONS (.ipynb, folder or .zip), writing "
                    "DIR/grades.csv and DIR/<submission id>/results.json, the students' "
                    "feedback DIR/<submission id>/feedback.md and .html, the gradebooks "
                    "DIR/gradebook.csv and DIR/canvas.csv (and DIR/feedback_for_canvas.zip for a "
                    "Canvas download), the class report DIR/report.html, "
                    "DIR/similarity.html (pairs of unusually alike answers, to look at) "
                    "and, when DIR held an earlier run, DIR/regrade.md (whose scores changed "
                    "and why).",
        epilog="example: python -m autograder grade examples/hw1_attention "
               "--assignment hw1_attention --out out/hw1_attention")
    grade.add_argument("submissions", type=Path, metavar="SUBMISSIONS",
                       help="folder with one .ipynb, folder or .zip per student (an unzipped "
                            "Canvas or Gradescope download works as is), or one .ipynb; the "
                            "entry's name is the submission id")
    grade.add_argument("--assignment", required=True, metavar="ID",
                       help=f"one of: {', '.join(registry.ids())}")
    grade.add_argument("--out", required=True, type=Path, metavar="DIR",
                       help="where results and reports go; grading into the folder of an "
                            "earlier run writes DIR/regrade.md")
    grade.add_argument("--jobs", type=_whole(), default=None,
                       help="submissions graded in parallel (default: one per core)")
    grade.add_argument("--quiet", action="store_true",
                       help="no progress and no table; warnings still go to stderr")
    grade.add_argument("--limit", action="append", default=[], metavar="NAME=VALUE",
                       help="override a limit of the grading config, e.g. notebook_seconds=20")
    grade.add_argument("--roster", type=Path, default=None, metavar="FILE",
                       help="CSV of the class (a Canvas gradebook export works): the "
                            "gradebook then lists every student, missing ones as missing")
    grade.add_argument("--canvas-column", default=None, metavar='"TITLE (ID)"',
                       help="the Canvas gradebook column canvas.csv fills, as its header reads "
                            "in a gradebook export (default: the roster's column of this "
                            "assignment; without one, canvas.csv makes a new assignment)")
    grade.add_argument("--groups", type=Path, default=None, metavar="FILE",
                       help="Canvas's export of the group set (CSV: group_name, "
                            "canvas_user_id ...): a group's submission counts for each member")
    grade.add_argument("--excused", type=Path, default=None, metavar="FILE",
                       help="students canvas.csv marks excused (EX): one id a line (Canvas "
                            "user id, SIS id, login or submission id)")
    grade.add_argument("--unsafe-no-sandbox", action="store_true",
                       help="grade even where no sandbox works (student code then runs with "
                            "your permissions and network); without it grading is refused "
                            "there, with a message saying what to enable")
    grade.add_argument("--due", default=None, metavar="DATETIME",
                       help="due date, e.g. 2026-03-01T23:59 (local time) or with +01:00; "
                            "later submissions show as late (default: the --policy file's, else "
                            "Gradescope's due date)")
    grade.add_argument("--policy", type=Path, default=None, metavar="FILE",
                       help="the course policy (TOML): due dates, grace, late penalties, "
                            "late days with their ledger, extensions and excused students; "
                            "gradebook.csv shows raw score, penalty and final score, canvas.csv "
                            "the final score (see README.md)")
    grade.add_argument("--manual-scores", type=Path, default=None, metavar="FILE",
                       help="the rubric-scores CSV (code, question, points, comment) a grader "
                            "filled from DIR/manual/rubric_scores.csv: merged into "
                            "gradebook.csv, canvas.csv and the feedback (see docs/exam.md)")
    grade.add_argument("--no-anonymous", action="store_true",
                       help="the export for grading by hand (DIR/manual/, written for "
                            "assignments with manual questions) shows each code's submission "
                            "and submitters")
    grade.add_argument("--scheduler", default=None, metavar="ADDRESS",
                       help="grade on the Dask cluster whose scheduler is at ADDRESS "
                            "(tcp://host:8786, or tls://... with Dask's TLS configuration); "
                            "see docs/scaling.md")
    grade.add_argument("--resume", action="store_true",
                       help="grade only the submissions DIR lacks (after an interrupted run: "
                            "Ctrl-C, SIGTERM, a lost scheduler or machine), then write "
                            "grades.csv and the reports for all; locally or with --scheduler")

    return grade


def _run_grade(args: argparse.Namespace, fail: Fail) -> int:
    from autograder.grade import main as grade
    return grade(grade_options(args))


def grade_options(args: argparse.Namespace) -> GradeOptions:
    """The grade command's arguments as the one object `grade.main` takes."""
    return GradeOptions(submissions=args.submissions, assignment=args.assignment, out=args.out,
                        jobs=args.jobs, quiet=args.quiet, limits=tuple(args.limit),
                        scheduler=args.scheduler, resume=args.resume,
                        allow_unsafe=args.unsafe_no_sandbox, roster=args.roster, due=args.due,
                        policy=args.policy, canvas_column=args.canvas_column,
                        groups=args.groups, excused=args.excused,
                        manual_scores=args.manual_scores, anonymous=not args.no_anonymous)


# audit ----------------------------------------------------------------------

def _declare_audit(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:
    audit = commands.add_parser(
        "audit", help="mutation analysis of an assignment's hidden tests",
        description="Grade every one-change mutant of the assignment's reference, every "
                    "assumption variant (the reference restricted to the lesson's rank, "
                    "crashing on one edge, or answering in another shape) and every corpus "
                    "variant, and say which mutants the hidden tests kill, which survive "
                    "(blind spots), which cascade into other questions, which are declared "
                    "equivalent (autograder/ID/mutants.toml), and which assumption costs "
                    "more than its own test. Exit 1 on a survivor, a cascade or a corpus "
                    "variant that is not as declared.",
        epilog="example: python -m autograder audit hw1_attention")
    audit.add_argument("id", metavar="ID", help=f"one of: {', '.join(registry.ids())}")
    audit.add_argument("--jobs", type=_whole(1, MAX_JOBS), default=None, metavar="N",
                       help="mutants graded in parallel (default: one per core)")
    audit.add_argument("--html", type=Path, default=None, metavar="FILE",
                       help="where to write the page (default: build/audit/ID.html)")
    audit.add_argument("--no-corpus", action="store_true",
                       help="mutants only, without the corpus's variants")
    audit.add_argument("--assumptions-only", action="store_true",
                       help="the assumption variants alone (seconds, not minutes)")
    return audit


def _run_audit(args: argparse.Namespace, fail: Fail) -> int:
    if args.id not in registry.ids():
        fail(f"unknown assignment {args.id!r} (known: {', '.join(registry.ids())})")
    from autograder.audit.command import main as run_audit
    return run_audit(assignment_id=args.id, jobs=args.jobs, html=args.html,
                     with_corpus=not (args.no_corpus or args.assumptions_only),
                     with_mutants=not args.assumptions_only)


# run-gradescope -------------------------------------------------------------

def _declare_run_gradescope(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:
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
    return gradescope


def _run_run_gradescope(args: argparse.Namespace, fail: Fail) -> int:
    from autograder.gradescope.run import main as run_gradescope
    return run_gradescope(assignment_id=args.assignment, root=args.root,
                          allow_unsafe=args.unsafe_no_sandbox)


# try-zip --------------------------------------------------------------------

def _declare_try_zip(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:
    try_zip = commands.add_parser(
        "try-zip", help="run a built Gradescope zip on one notebook, before uploading it",
        description="Unpack ZIP into a fresh folder laid out as Gradescope's /autograder, "
                    "put NOTEBOOK in its submission/ and run the zip's own run_autograder "
                    "with this Python (which needs the zip's requirements), as Gradescope "
                    "runs it; print results.json as the instructor sees it and as a student "
                    "does before the due date, after it and once grades are published. "
                    "With --docker, in a container at Gradescope's defaults (768 MB, half a "
                    "CPU) of an image the zip's own setup.sh built (reused for the same zip). "
                    "Exit 1 when the zip could not grade the notebook, 2 when --docker finds "
                    "no Docker engine.",
        epilog="example: python -m autograder try-zip build/gradescope/hw1_attention.zip "
               "examples/hw1_attention/full_solution.ipynb")
    try_zip.add_argument("zip", type=Path, metavar="ZIP", help="a zip `build` wrote")
    try_zip.add_argument("notebook", type=Path, metavar="NOTEBOOK", help="the upload")
    try_zip.add_argument("--metadata", type=Path, default=None, metavar="FILE",
                         help="a submission_metadata.json to put beside it (default: one "
                              "upload by one made-up student, no due date)")
    try_zip.add_argument("--python", default=None, metavar="PATH",
                         help="the interpreter run_autograder uses (default: this one)")
    try_zip.add_argument("--keep", type=Path, default=None, metavar="DIR",
                         help="copy the /autograder folder there afterwards")
    try_zip.add_argument("--docker", action="store_true",
                         help="run it in a Docker container of 768 MB and half a CPU, as "
                              "root, from an image built by `docker build` running the zip's "
                              "setup.sh (tagged by the zip's hash: a second try reuses it)")
    try_zip.add_argument("--base-image", default=None, metavar="IMAGE",
                         help="with --docker: the image setup.sh runs on (default: "
                              "Gradescope's Ubuntu 22.04 base, "
                              "gradescope/autograder-base:ubuntu-22.04)")
    return try_zip


def _run_try_zip(args: argparse.Namespace, fail: Fail) -> int:
    if args.docker and args.python:
        fail("try-zip: --python and --docker exclude each other (the container "
             "runs the venv setup.sh made)")
    if args.base_image and not args.docker:
        fail("try-zip: --base-image needs --docker")
    if args.docker:
        from autograder.gradescope import try_docker
        return try_docker.main(zip_path=args.zip, notebook=args.notebook,
                               metadata=args.metadata, keep=args.keep,
                               base=args.base_image or try_docker.DEFAULT_BASE)
    from autograder.gradescope.try_zip import main as try_zip_main
    return try_zip_main(zip_path=args.zip, notebook=args.notebook, python=args.python,
                        metadata=args.metadata, keep=args.keep)


# bench ----------------------------------------------------------------------

def _declare_bench(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:
    bench = commands.add_parser(
        "bench", help="time our grader against `otter run` on generated submissions",
        description="Grade N generated submissions of each assignment with this grader "
                    "and the first M with `otter run`; print per-submission medians, the "
                    "ratio and peak memory. A benchmark: it never fails on a slow machine.")
    bench.add_argument("--assignment", action="append", default=[], metavar="ID",
                       help="repeatable (default: every assignment with a master notebook)")
    bench.add_argument("-n", type=_whole(1, MAX_BENCH), default=50,
                       help="submissions for our grader")
    bench.add_argument("--otter-n", type=_whole(0, MAX_BENCH), default=10,
                       help="submissions for `otter run`")
    bench.add_argument("--skip-otter", action="store_true", help="time our grader only")
    bench.add_argument("--jobs", type=_whole(1, MAX_JOBS), default=None,
                       help="submissions graded in parallel (default: one per core)")
    bench.add_argument("--seed", type=_whole(), default=0, help="seed of the generated submissions")
    bench.add_argument("--keep", type=Path, default=None, metavar="DIR",
                       help="keep the generated submissions and results in DIR")
    bench.add_argument("--dask", type=_sizes, default=None, metavar="K,...",
                       help="also grade the same submissions with the local path (--jobs K) "
                            "and on a local Dask cluster of K one-thread workers, for each K "
                            "(e.g. 1,2): submissions per second of each")
    bench.add_argument("--profile", action="store_true",
                       help="also print where the time goes: the worker's start, each notebook "
                            "cell, and each hidden test (its requests to the worker, callbacks, "
                            "time waiting for the worker and time in the grader), medians")
    return bench


def _run_bench(args: argparse.Namespace, fail: Fail) -> int:
    from autograder.bench import main as run_bench
    return run_bench(assignments=args.assignment, n=args.n, otter_n=args.otter_n,
                     skip_otter=args.skip_otter, seed=args.seed, jobs=args.jobs,
                     keep=args.keep, dask=args.dask, profile=args.profile)


VERBS = (
    Verb(_declare_build, _run_build),
    Verb(_declare_new, _run_new),
    Verb(_declare_grade, _run_grade),
    Verb(_declare_audit, _run_audit),
    Verb(_declare_run_gradescope, _run_run_gradescope),
    Verb(_declare_try_zip, _run_try_zip),
    Verb(_declare_bench, _run_bench),
)
"""Every command, in the order `python -m autograder --help` lists them."""


# argument types ---------------------------------------------------------------

MAX_BENCH = 100_000
"""More generated submissions than a benchmark needs."""


def _whole(low: int | None = None, high: int | None = None):
    """An argparse type: a whole number, also written as 1e3, from `low` to `high`."""
    def parse(text: str) -> int:
        try:
            value = parse_number(text)
        except UsageError:
            value = math.nan
        if isinstance(value, float) and not (math.isfinite(value) and value.is_integer()):
            raise argparse.ArgumentTypeError(
                f"expected a whole number (such as 4 or 1e3), got {text!r}")
        value = int(value)
        if (low is not None and value < low) or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"expected a whole number from {low} to {high}, "
                                             f"got {text!r}")
        return value
    return parse


def _sizes(text: str) -> list[int]:
    """"1,2" -> [1, 2]."""
    try:
        sizes = [int(part) for part in text.split(",")]
    except ValueError:
        sizes = []
    if not sizes or any(k < 1 for k in sizes):
        raise argparse.ArgumentTypeError(f"expected sizes of 1 or more like 1,2, got {text!r}")
    return sizes


def console() -> None:
    """The `autograder` console script (pyproject.toml): `python -m autograder`."""
    sys.exit(main())
