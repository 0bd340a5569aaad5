"""`build` and `new`: the student notebooks and zips, and a new assignment's skeleton."""
from __future__ import annotations

import argparse
from pathlib import Path

from autograder.commands import Commands, Fail, Verb


def declare_build(commands: Commands) -> argparse.ArgumentParser:
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


def run_build(args: argparse.Namespace, fail: Fail) -> int:
    from autograder.build import main as build
    return build(assignments=args.assignments, torch_wheel=args.torch_wheel)


def declare_new(commands: Commands) -> argparse.ArgumentParser:
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


def run_new(args: argparse.Namespace, fail: Fail) -> int:
    from autograder.build.scaffold import main as new_assignment
    return new_assignment(assignment_id=args.id, title=args.title)


BUILD = Verb(declare_build, run_build)
NEW = Verb(declare_new, run_new)
