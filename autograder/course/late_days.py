"""The term's late days: the ledger CSV beside the policy file
(`[course] ledger`, late_days.csv by default), one row per student and
assignment on which late days were spent:

    student,name,assignment,days,source,note,check
    s01,Ada Lovelace,hw1_attention,2,auto,submitted 1 d 5 h late,5d1f0a39c2
    s02,Bo Keller,hw2_positions_params,0,instructor,waived: the server was down,

`grade` reads the ledger before spending and spends in order of the
assignments' due dates: what an assignment may use is the budget minus the
days spent on the assignments due before it.

What must stay true: an instructor's row is never changed, moved or removed.
A row is the grader's own only when its source is "auto" and its check (a
fingerprint of the student, assignment, days and note the grader wrote)
still matches; any other row is the instructor's: one they added (any other
source, or none), or an "auto" row whose days or note they edited. A re-run
of an assignment replaces only the grader's own rows of that assignment for
the students it graded again (a regrade of one notebook leaves everyone
else's days alone), in place. An instructor's row for a student and an
assignment fixes the days spent there (0 waives them): the grader uses it
instead of computing.
"""
from __future__ import annotations

import csv
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from autograder.course.policy_file import PolicyError, student_key
from autograder.writing import csv_text, spreadsheet_cell

COLUMNS = ["student", "name", "assignment", "days", "source", "note", "check"]
REQUIRED = ("student", "assignment", "days")
AUTO = "auto"


@dataclass(frozen=True)
class Entry:
    """One row of the ledger, its cells as the file holds them."""
    cells: dict[str, str]
    line: int = 0
    """Its line in the file as read (0: made by this run)."""

    @property
    def key(self) -> str:
        return student_key(self.cells.get("student", ""))

    @property
    def assignment(self) -> str:
        return self.cells.get("assignment", "").strip()

    @property
    def days(self) -> int:
        return int(self.cells.get("days", "0").strip())

    @property
    def ours(self) -> bool:
        """Written by the grader and unchanged since (not the instructor's)."""
        return self.cells.get("source", "").strip() == AUTO \
            and self.cells.get("check", "").strip() == fingerprint(self.cells)


@dataclass
class Ledger:
    path: Path
    entries: list[Entry] = field(default_factory=list)
    columns: list[str] = field(default_factory=lambda: list(COLUMNS))
    """COLUMNS, then any column the instructor added (kept as written)."""

    def spent(self, ids: set[str], counts: Callable[[str], bool]) -> int:
        """Days the student known by `ids` spent on the assignments `counts` accepts."""
        return sum(e.days for e in self.entries if e.key in ids and counts(e.assignment))

    def fixed(self, ids: set[str], assignment: str) -> int | None:
        """The days an instructor's rows set for this student and assignment, or None."""
        theirs = [e for e in self.entries
                  if e.key in ids and e.assignment == assignment and not e.ours]
        return sum(e.days for e in theirs) if theirs else None

    def text(self) -> str:
        return csv_text([self.columns, *([e.cells.get(c, "") for c in self.columns]
                                         for e in self.entries)])


def entry(student: str, name: str, assignment: str, days: int, note: str) -> Entry:
    """A row of the grader's own, with its fingerprint."""
    cells = {"student": student, "name": name, "assignment": assignment, "days": str(days),
             "source": AUTO, "note": note}
    cells = {k: spreadsheet_cell(v) for k, v in cells.items()}  # as the file will hold them
    return Entry({**cells, "check": fingerprint(cells)})


def fingerprint(cells: dict[str, str]) -> str:
    text = "\x1f".join(cells.get(k, "").strip() for k in ("student", "assignment", "days", "note"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]


def read(path: Path) -> Ledger:
    """The ledger (empty when the file does not exist yet). Raises PolicyError
    naming the line of a row that cannot be used."""
    if not path.exists():
        return Ledger(path)
    try:
        with open(path, newline="", encoding="utf-8-sig") as f:
            reader = csv.DictReader(f)
            header = [(h or "").strip().lower() for h in reader.fieldnames or []]
            missing = [c for c in REQUIRED if c not in header]
            if missing:
                raise PolicyError(f"late-day ledger {path}, line 1: no column "
                                  f"{', '.join(missing)}; the columns are {', '.join(COLUMNS)}")
            reader.fieldnames = header
            entries = [_entry(path, reader.line_num, row) for row in reader
                       if any((v or "").strip() for v in row.values() if isinstance(v, str))]
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise PolicyError(f"late-day ledger {path} cannot be read ({exc}); fix or move it "
                          "(the grader writes a new one where there is none)") from None
    extra = [h for h in header if h and h not in COLUMNS]
    return Ledger(path, entries, COLUMNS + list(dict.fromkeys(extra)))


def _entry(path: Path, line: int, row: dict) -> Entry:
    cells = {k: (v if isinstance(v, str) else "") for k, v in row.items() if k}
    days = cells.get("days", "").strip()
    if not days.isdigit() or not days.isascii():
        raise PolicyError(f"late-day ledger {path}, line {line}: days must be a whole number "
                          f"of 0 or more, got {days!r}")
    if not cells.get("student", "").strip() or not cells.get("assignment", "").strip():
        raise PolicyError(f"late-day ledger {path}, line {line}: a row needs a student and an "
                          "assignment")
    return Entry(cells, line)


def updated(ledger: Ledger, assignment: str, regraded: list[set[str]],
            new: list[tuple[set[str], Entry]]) -> Ledger:
    """The ledger after a run of `assignment`: the grader's own rows of it for
    the students in `regraded` (their ids) give way to `new` ((ids, row)
    pairs), each new row in the place of that student's old one, else at the
    end; every other row stays as it is, where it is."""
    again = set().union(*regraded) if regraded else set()
    waiting = list(new)
    kept: list[Entry] = []
    for e in ledger.entries:
        if not (e.ours and e.assignment == assignment and e.key in again):
            kept.append(e)
            continue
        for i, (ids, row) in enumerate(waiting):
            if e.key in ids:
                kept.append(waiting.pop(i)[1])
                break
    return Ledger(ledger.path, kept + [row for _, row in waiting], ledger.columns)
