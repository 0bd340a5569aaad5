"""One bad entry costs its own row or section of a report, never the report.

Reports work entry by entry (a submission, its feedback, its free
responses); the work for one entry runs through `attempt`, so that what
raises for that entry alone (a bug of ours that only its content reaches)
is logged with its traceback and returned as a short reason, which the
report shows in that entry's place. The other entries are written as usual.

It sits at the package's top, beside writing.py, because the course's rules
(the policy of one gradebook row) use it as well as the writers of report/
and exam/, and the rules must not import the writers.
"""
from __future__ import annotations

import logging

log = logging.getLogger(__name__)


def attempt(what: str, work, *args) -> tuple[object, str]:
    """(work(*args), "") or, when it raises, (None, the exception's type
    name); `what` names the work in the log ("the answers of s1001")."""
    try:
        return work(*args), ""
    except Exception as exc:  # a bug of ours that this entry's content reached
        log.exception("%s failed", what)
        return None, type(exc).__name__
