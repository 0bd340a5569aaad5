"""The course policy applied to one graded batch (`grade --policy FILE`).

`prepare` reads the policy file, its accommodations and its late-day
ledger before grading (a mistake costs no grading time); `apply` gives each
gradebook row (one student: a roster row, or a submitter) its
policy.Outcome and computes the ledger's new rows; `status` is the line of
a submission's feedback; the report stage writes `Applied.ledger`
(report/run.py).

Each student's due date is, first to last: their accommodation (a new due
date, or extra days), Gradescope's own due date for them where it differs
from the assignment's (an extension made on Gradescope), then --due, the
policy's due date for the assignment, Gradescope's assignment due date.

What must stay true: grades.csv and results.json keep the raw points (the
policy changes only gradebook.csv's final column, canvas.csv's score and
the feedback's line); the ledger is read again just before it is written,
so an instructor's edit made while grading ran is kept too (late_days.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime

from autograder import guard
from autograder.course import accommodations, late_days, lateness, policy, policy_file, roster
from autograder.course.policy import LateRule, Outcome

ON_TIME = "Submitted on time."
ROSTER_KEYS = ("sis user id", "sid", "student id", "id", "sis login id", "login", "email",
               "e-mail", "username", "user", "submission")
"""Which roster identifier a ledger row names the student by, first found first."""


@dataclass(frozen=True)
class Terms:
    """The policy of a run, read before grading."""
    course: policy_file.Course
    accommodations: list[accommodations.Accommodation] = field(default_factory=list)
    ledger: late_days.Ledger | None = None


def prepare(path) -> Terms:
    """Raises policy_file.PolicyError (a ValueError) with the file and line."""
    course = policy_file.read(path)
    found = accommodations.read(course.accommodations, course.zone) \
        if course.accommodations else []
    ledger = late_days.read(course.ledger) if course.late_days and course.ledger else None
    return Terms(course, found, ledger)


@dataclass
class Applied:
    terms: Terms | None
    ledger: late_days.Ledger | None = None
    """The ledger to write (None: no late-day budget, or no policy)."""
    lines: list[str] = field(default_factory=list)


def apply(rows: list, assignment: str, due: datetime | None, terms: Terms | None):
    """(rows with their outcomes, Applied). `rows`: report/gradebook.Row; `due`: the
    run's due date (--due, else the policy's)."""
    if terms is None:
        return rows, Applied(None)
    course, rule = terms.course, terms.course.rule(assignment)
    applied = Applied(terms)
    ledger, writable = _fresh_ledger(terms, applied.lines)
    here = due or rule.due

    def counts(other: str) -> bool:  # spent on an assignment due before this one
        theirs = course.due(other)
        return other != assignment and (theirs is None or here is None or theirs <= here)
    done, regraded, new = [], [], []
    for row in rows:
        ids = _ids(row)
        made, error = guard.attempt("the policy of a gradebook row", _outcome, row, ids,
                                    assignment, rule, terms, ledger, counts, here)
        o, days_row = made if not error else (not_applied(row, error), None)
        done.append(replace(row, outcome=o))
        if row.result is not None and ids:
            regraded.append(ids)
        if days_row is not None and not any(ids & other for other, _ in new):
            new.append((ids, days_row))
    if ledger is not None:
        after = late_days.updated(ledger, assignment, regraded, new)
        applied.ledger = after if writable else None
        applied.lines += _overspent(after, regraded, course.late_days)
    applied.lines += _summary(done)
    return done, applied


def failed(rows: list) -> tuple[list, Applied]:
    """When applying the policy failed as a whole (a fault of the grader):
    every graded row's final score is left blank, never the raw one in its place."""
    return [replace(row, outcome=not_applied(row, "logged")) if row.result else row
            for row in rows], Applied(None)


def not_applied(row, error: str) -> Outcome:
    return Outcome(row.result.score if row.result else 0.0, None, why="not applied",
                   note=f"the course policy could not be applied ({error}): final left blank")


def late(rows: list, timings: dict[str, lateness.Timing]) -> list[str]:
    """The submissions that came in late (against each student's own due date
    where the policy gives one)."""
    if any(row.outcome is not None for row in rows):
        return sorted({row.result.submission for row in rows
                       if row.result is not None and row.outcome is not None and row.outcome.late})
    return sorted(sid for sid, t in timings.items() if t.late)


def parse_due(text: str, terms: Terms | None) -> datetime:
    """--due: in the course's time zone when the policy names one."""
    if terms is None or terms.course.zone is None:
        return lateness.parse_time(text)
    return policy_file.parse_due(text, terms.course.zone)


def status(rows: list, result, timing: lateness.Timing | None, max_total: float,
           terms: Terms | None) -> str:
    """The feedback's line(s) about timing and the policy for `result` (one per
    member of a group whose outcomes differ)."""
    if terms is None:
        return lateness.status_line(timing) if timing else ""
    rule, said = terms.course.rule(result.assignment), {}
    for row in rows:
        if row.result is not None and row.result.submission == result.submission \
                and row.outcome is not None:  # a group's rows hold copies (groups.credit)
            line = policy.explain(row.outcome, rule, max_total, terms.course.zone)
            said.setdefault(line or ON_TIME, row.name)
    if len(said) == 1:  # one line for everyone (the one student, or the whole group)
        return "" if ON_TIME in said else next(iter(said))
    return "\n".join(f"{name}: {line}" for line, name in said.items())


def _outcome(row, ids: set[str], assignment: str, rule: LateRule, terms: Terms,
             ledger: late_days.Ledger | None, counts, run_due: datetime | None):
    """One row's policy.Outcome (None for a missing student) and its new
    ledger row (None when no days were spent, or an instructor set them)."""
    acc = accommodations.applying(terms.accommodations, assignment, ids)
    r, t, zone = row.result, row.timing, terms.course.zone
    if acc is not None and acc.excused:
        return Outcome(r.score if r else 0.0, None, why="excused", note=_reason(acc, zone)), None
    if r is None:
        return None, None
    due, on_gradescope = _own_due(row, ids, run_due)
    due = acc.due_for(due) if acc else due
    extension = acc.describe(lambda when: policy.show(when, zone)) if acc \
        else "extension on Gradescope" if on_gradescope else ""
    base = Outcome(r.score, r.score, due, extension=extension,
                   note=_reason(acc, zone) or extension)
    if t is not None and t.submitted is None and t.recorded_late:
        return replace(base, recorded_late=True, note=_join(
            base.note, "late per Canvas, time unknown: no penalty computed")), None
    late = max(0.0, policy.elapsed(due, t.submitted)) if due and t and t.submitted else 0.0
    if not late or r.error:  # on time, or nothing to take from
        return replace(base, late_seconds=late), None
    budget = terms.course.late_days if ledger is not None else 0
    before = ledger.spent(ids, counts) if ledger is not None else 0
    fixed = ledger.fixed(ids, assignment) if ledger is not None else None
    days, final, why, units = policy.decide(rule, r.score, late, budget - before, fixed)
    left = max(0, budget - before - days) if budget else None
    o = replace(base, final=final, late_seconds=late, late_days=days, days_left=left, why=why,
                units=units)
    spent = ""
    if days or fixed is not None:
        spent = (f"{days} late day{'s' * (days != 1)} "
                 + ("set in the ledger" if fixed is not None else "spent")
                 + (f", {left} left" if left is not None else ""))
    o = replace(o, note=_join(o.note, spent, _why(o, rule)))
    if fixed is not None or not days:
        return o, None
    return o, late_days.entry(_ledger_name(row), row.name, assignment, days,
                              f"submitted {policy.duration(late)} late")


def _why(o: Outcome, rule: LateRule) -> str:
    if o.why in ("on time", "late days"):
        return ""
    if o.why == "grace":
        return "within the grace period"
    if o.why == "max late":
        return "past the latest accepted: 0"
    return f"{rule.describe()}: -{policy.fmt(o.penalty)}" + (" (floor)" if o.why == "floor" else "")


def _reason(acc, zone) -> str:
    if acc is None:
        return ""
    what = "excused" if acc.excused else acc.describe(lambda when: policy.show(when, zone))
    return f"{what} (accommodations line {acc.line}" + (f": {acc.reason})" if acc.reason else ")")


def _join(*parts: str) -> str:
    return "; ".join(p for p in parts if p)


def _ids(row) -> set[str]:
    """Every identifier the row's student is known by (student_keys)."""
    if row.student is not None:
        return {policy_file.student_key(v) for v in row.student.keys.values() if v.strip()}
    if row.result is None:
        return set()
    members = [row.member] if row.member is not None else roster.members(row.result)
    return {policy_file.student_key(v) for m in members
            for _, v in roster.identities(row.result, m)}


def _member(row, ids: set[str]) -> dict:
    """The submitter (of a group's members) this row is for."""
    if row.member is not None:
        return row.member
    members = roster.members(row.result)
    return next((m for m in members if {policy_file.student_key(v)
                                        for _, v in roster.identities(row.result, m)} & ids),
                members[0])


def _own_due(row, ids: set[str], run_due: datetime | None) -> tuple[datetime | None, bool]:
    """(due date, whether it is an extension given on Gradescope): Gradescope's
    due date for this student where it differs from the assignment's, else
    the run's, else Gradescope's for the assignment."""
    meta = row.result.metadata or {}
    own = lateness.metadata_due({"users": [_member(row, ids)]})
    general = lateness.metadata_due({"assignment": meta.get("assignment")})
    if own is not None and own != general:
        return own, True
    return run_due or general, False


def _ledger_name(row) -> str:
    """The identifier a new ledger row names the student by."""
    if row.student is not None:
        keys = row.student.keys
        return next((keys[k] for k in ROSTER_KEYS if keys.get(k, "").strip()), row.student.label)
    member = _member(row, _ids(row))
    for kind in ("sid", "email", "canvas_user_id"):
        if isinstance(member.get(kind), str) and member[kind].strip():
            return member[kind].strip()
    return row.result.submitter or row.result.submission


def _fresh_ledger(terms: Terms, lines: list[str]) -> tuple[late_days.Ledger | None, bool]:
    """(the ledger as it is now, whether to write it): the instructor may have
    edited it while grading ran; if it has become unreadable, the one read
    before grading counts and nothing is written over it."""
    if terms.ledger is None:
        return None, False
    try:
        return late_days.read(terms.ledger.path), True
    except policy_file.PolicyError as exc:
        lines.append(f"warning: {exc}; late days were counted from the ledger as it was "
                     "before grading, and it is not rewritten")
        return terms.ledger, False


def _overspent(ledger: late_days.Ledger, regraded: list[set[str]], budget: int) -> list[str]:
    """Students of this run whose ledger rows add up to more than the budget
    (an instructor's rows, or a regrade of an earlier assignment)."""
    over = {}
    for ids in regraded:
        total = ledger.spent(ids, lambda _: True)
        if total > budget:
            over[min(ids)] = total
    if not over:
        return []
    who = ", ".join(f"{k} ({n})" for k, n in sorted(over.items())[:10])
    return [f"warning: late days: {len(over)} of the students graded have more than {budget} "
            f"in the ledger (each assignment spends what the ones due before it left): {who}"]


def _summary(rows: list) -> list[str]:
    outcomes = [row.outcome for row in rows if row.outcome is not None]
    penalised = sum(1 for o in outcomes if o.penalty > 0)
    days = sum(o.late_days for o in outcomes)
    excused = sum(1 for o in outcomes if o.excused)
    extended = sum(1 for o in outcomes if o.extension)
    return [f"policy: {penalised} late penalties, {days} late days spent, {extended} extensions, "
            f"{excused} excused (gradebook.csv: penalty, final, policy)"]
