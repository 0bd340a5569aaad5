"""A recorded or replayed call that raised: its exception's types and message,
compared as the student's and a mistake's must agree."""
from __future__ import annotations

import linecache
import os
import re

from autograder.engine.intake import untrusted


class Raised:
    """A recorded call that raised: the exception's type names (most derived first) and
    its message, as the student's arrives (engine/intake/untrusted.text); None when not
    known. `free`: the message is the author's own text (a mistake's `raise` statement,
    such as a ValueError for an argument it refuses), which any message of the same
    type matches; other messages (a library's, Python's) are evidence and must agree."""

    def __init__(self, type_names, message: str | None = None, free: bool = False):
        self.type_names = list(type_names)
        self.message = message
        self.free = free

    @classmethod
    def of(cls, exc: BaseException, renamed: tuple[str, str] | None = None) -> "Raised":
        """A replay's exception, its message as the worker would report it (the first
        2000 characters, cleaned) with `renamed` (a mistake's class name, the stub's)
        swapped, so that torch's "loading state_dict for <class>" reads the same."""
        message = str(exc)[:2000]
        if renamed and renamed[0]:
            message = re.sub(rf"\b{re.escape(renamed[0])}\b", renamed[1], message)
        return cls((c.__name__ for c in type(exc).__mro__),
                   untrusted.text(message, MESSAGE_CHARS), _raised_here(exc))

    def same(self, other: "Raised") -> bool:
        """The same exception type, and messages of one class: equal but for memory
        addresses, unless either is free text or unknown."""
        if self.type_names[0] != other.type_names[0]:
            return False
        if self.free or other.free or self.message is None or other.message is None:
            return True
        return _ADDRESS.sub("0x", self.message) == _ADDRESS.sub("0x", other.message)


MESSAGE_CHARS = 500
"""The characters of an exception's message the grader keeps (StudentError's)."""


_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


_PACKAGE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _raised_here(exc: BaseException) -> bool:
    """Whether a `raise` statement of the autograder package (an assignment's mistake or
    reference) raised `exc`: its message is then the author's own words."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is None:
        return False
    code = tb.tb_frame.f_code
    if not os.path.abspath(code.co_filename).startswith(_PACKAGE + os.sep):
        return False
    return linecache.getline(code.co_filename, tb.tb_lineno).lstrip().startswith("raise")
