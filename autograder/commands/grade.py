"""`grade`: a folder of submissions, into one `GradeOptions` for `grade.main`."""
from __future__ import annotations

import argparse
from pathlib import Path

from autograder import registry
from autograder.commands import Commands, Fail, Verb, whole
from autograder.grade_options import GradeOptions


def declare_grade(commands: Commands) -> argparse.ArgumentParser:
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
    grade.add_argument("--jobs", type=whole(), default=None,
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


def run_grade(args: argparse.Namespace, fail: Fail) -> int:
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


GRADE = Verb(declare_grade, run_grade)
