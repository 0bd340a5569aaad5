"""How a hidden test says the student's answer is wrong: raise Fail.

The runner (engine/driving/runner.py) turns Fail into a failed test whose output is
str(Fail): the message is for the student, so it must say what differs and
never the expected value (the checks of autograder/checks.py are written so).
"""
from __future__ import annotations


class Fail(AssertionError):
    """A check failed; str(self) is shown to the student."""


def fail(message: str):
    raise Fail(message)
