"""The commands of `python -m autograder`, one file per group of verbs.

Each verb is two functions side by side: `declare_VERB` adds its subparser
and options, `run_VERB` hands the parsed arguments to the module that does
the work (imported there, so `--help` loads no grading code). A verb is
listed once, in cli.VERBS; a new option touches only its verb's file."""
from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from typing import NamedTuple, NoReturn

from autograder.grade import UsageError, parse_number

Commands = argparse._SubParsersAction
"""The top-level parser's subparsers, which each `declare_VERB` adds to."""

Fail = Callable[[str], NoReturn]
"""The top-level parser's `error`: a misuse found after parsing reads (and
exits 2) as one argparse found itself."""


class Verb(NamedTuple):
    """A command: `declare` adds its subparser to the top-level parser's
    subparsers, `run` runs the parsed arguments and returns the exit status."""
    declare: Callable[[Commands], argparse.ArgumentParser]
    run: Callable[[argparse.Namespace, Fail], int]


# Argument types more than one verb uses.

def whole(low: int | None = None, high: int | None = None):
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


def sizes(text: str) -> list[int]:
    """"1,2" -> [1, 2]."""
    try:
        parsed = [int(part) for part in text.split(",")]
    except ValueError:
        parsed = []
    if not parsed or any(k < 1 for k in parsed):
        raise argparse.ArgumentTypeError(f"expected sizes of 1 or more like 1,2, got {text!r}")
    return parsed
