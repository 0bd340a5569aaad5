"""`run-gradescope` and `try-zip`: a Gradescope container's grading, and a zip tried before uploading."""
from __future__ import annotations

import argparse
from pathlib import Path

from autograder.commands import Commands, Fail, Verb


def declare_run_gradescope(commands: Commands) -> argparse.ArgumentParser:
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


def run_run_gradescope(args: argparse.Namespace, fail: Fail) -> int:
    from autograder.gradescope.run import main as run_gradescope
    return run_gradescope(assignment_id=args.assignment, root=args.root,
                          allow_unsafe=args.unsafe_no_sandbox)


def declare_try_zip(commands: Commands) -> argparse.ArgumentParser:
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


def run_try_zip(args: argparse.Namespace, fail: Fail) -> int:
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


RUN_GRADESCOPE = Verb(declare_run_gradescope, run_run_gradescope)
TRY_ZIP = Verb(declare_try_zip, run_try_zip)
