"""`python -m autograder`: a thin command line; each command hands over to
the module that does the work.

The verbs live in autograder/commands/, each one's options beside the code
that runs it; this module only builds the top-level parser from `VERBS` and
dispatches."""
from __future__ import annotations

import argparse
import gc
import sys
from typing import NoReturn

from autograder.commands import audit, bench, build, grade, gradescope

VERBS = (build.BUILD, build.NEW, grade.GRADE, audit.AUDIT, gradescope.RUN_GRADESCOPE,
         gradescope.TRY_ZIP, bench.BENCH)
"""Every command, in the order `python -m autograder --help` lists them."""


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


def console() -> NoReturn:
    """`python -m autograder` and the `autograder` console script (pyproject.toml): run
    the command, then exit with its status."""
    code = main()
    # The interpreter's teardown runs its cycle collector over every object still alive,
    # torch's tens of thousands among them: 0.3-0.5 s of CPU at the end of every command
    # (a Gradescope run included). Frozen, they are left to the kernel, which frees the
    # process's memory anyway; exit handlers and buffered output still run as usual.
    gc.freeze()
    sys.exit(code)
