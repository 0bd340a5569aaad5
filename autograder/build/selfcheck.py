"""Hidden tests checked against their own answers: the master's solution must
get every point, the untouched student notebook none, and stand-ins of the
stubs (autograder.build.stand_ins: raising, returning their input, answering
None, or the right answer made zeros or ones) none but on the tests declared
about the answer's format (autograder.checks.format_test).

A hidden test that the solution fails is a bug of the test (a typo in the
reference's name, a dtype written as a numpy type where the check wants a
string), and it would fail every student alike; one the untouched notebook
passes gives points for nothing, and so does one a stand-in passes: a test of
bad input that never first checks that a valid call answers is paid by
`raise ValueError`, whatever the docs say (the stand-ins count only on the
questions whose stub the solution defines: an exam's short answers stay the
solution's in those notebooks). A test that raises on its own side on the
solution is named with its exception and its own line, as its author reads it
(runner.grader_detail), without the traceback or the words meant for students.
`build` runs this check and refuses an assignment that fails it, naming the
tests; `grade` runs it before grading anyone where the master is at hand, unless
`build` already checked these very sources (a stamp in build/selfcheck/). What
must stay true: a stamp is written only after a check found nothing, and it
names a digest of every source the check depends on (master, config, the
package folder, the check's own code and stand-ins).
"""
from __future__ import annotations

import contextlib
import copy
import hashlib
import inspect
import logging
import re
import shutil
import tempfile
from pathlib import Path

import nbformat

from autograder import paths, registry

STAMPS = paths.ROOT / "build" / "selfcheck"
CLAIM = re.compile(r'^STUDENT_ID\s*=\s*"([^"]+)"', re.M)
STAND_IN = "stand_in__"
"""How the stand-ins' notebooks are named (stand_in__<kind>)."""
ADVICE = ("a test must first check that a valid call answers (and that the answer is the "
          "stub's work done, not a constant or its input); a test only of the answer's "
          "type, shape or dtype may say so with @format_test (docs/authoring.md)")
"""What an author does about a test a stand-in earns points on."""


def digest(assignment_id: str) -> str:
    """Of the master, the config, the files the master pastes from, every file of
    the package folder, and the check's own stand-ins (this file's and stand_ins.py:
    a stamp made before they changed checked less)."""
    from autograder.build import copies
    record = registry.get(assignment_id)
    pasted = copies.sources(record.master.read_text()) if record.master.is_file() else []
    check = [Path(__file__), Path(__file__).with_name("stand_ins.py")]
    h = hashlib.sha256()
    for path in [record.master, record.config, *pasted, *record.package_files(), *check]:
        h.update(str(path).encode() + b"\0")
        h.update(path.read_bytes() if path.is_file() else b"(none)")
    return h.hexdigest()


def problems(assignment_id: str, solution: nbformat.NotebookNode, untouched: bytes,
             allow_unsafe: bool = False) -> list[str]:
    """The tests the solution loses points on, those the untouched notebook earns
    points on, and those a stand-in of the solution's stubs earns points on (but
    the tests declared about the answer's format), as sentences; [] when there
    are none. One batch grades them all."""
    from autograder.build import stand_ins
    from autograder.engine import assignment as assignment_mod
    from autograder.engine import batch
    from autograder.engine.driving import runner
    code = [c.source for c in solution.cells if c.cell_type == "code"]
    claim = CLAIM.search("\n".join(code))
    name = claim.group(1) if claim else "solution"  # an exam grades the identity it claims
    loaded = assignment_mod.load(assignment_id)
    reference = inspect.getsource(loaded.reference)
    stubbed = set(stand_ins.stubs(reference, loaded.questions)) & stand_ins.defined(code)
    work = Path(tempfile.mkdtemp(prefix="autograder-selfcheck-"))
    try:
        subs = work / "submissions"
        subs.mkdir()
        nbformat.write(solution, subs / f"{name}.ipynb")
        (subs / "untouched.ipynb").write_bytes(untouched)
        if stubbed:  # the solution with each kind of stand-in as a last cell
            for kind, cell in stand_ins.stand_ins(reference, stubbed).items():
                standing = copy.deepcopy(solution)
                standing.cells.append(nbformat.v4.new_code_cell(cell))
                nbformat.write(standing, subs / f"{STAND_IN}{kind}.ipynb")
        with _quiet(runner.log):  # a test's own error is said below, without a traceback
            graded = batch.grade_folder(assignment_id, subs, work / "out", jobs=2,
                                        progress=False, announce=False,
                                        allow_unsafe=allow_unsafe, diagnose=False)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    found = []
    for result in graded.results:
        if result.submission.startswith(STAND_IN):
            continue
        wanted_full = result.submission != "untouched"
        for t in result.tests:
            if wanted_full and t.grader_error:  # the test's own bug, as its author reads it
                found.append(f"{t.question}::{t.name}: your test raised {t.grader_detail}")
            elif wanted_full and t.score < t.max_score:
                found.append(f"the master's solution loses {t.max_score - t.score:g} point(s) "
                             f"on {t.question}::{t.name}: {t.output[:300]}")
            elif not wanted_full and t.score > 0:
                found.append(f"the untouched notebook earns {t.score:g} point(s) on "
                             f"{t.question}::{t.name}")
        if result.error:
            found.append(f"the {'solution' if wanted_full else 'untouched notebook'} could not "
                         f"be graded: {result.error}")
    return found + stand_in_problems(graded.results, loaded.cases, stubbed)


def stand_in_problems(results, cases, stubbed: set[str]) -> list[str]:
    """The tests of a stubbed question that a stand-in's notebook (among `results`,
    named STAND_IN + kind) earns points on, but those whose function (`cases`: the
    loaded assignment's, read here in the trusted process) is declared a format test,
    one sentence a test; and a stand-in's notebook that could not be graded."""
    from autograder.build import stand_ins
    from autograder.checks import is_format_test
    functions = {(c.question, c.name): c.collected.func for c in cases}
    found, paid = [], {}
    for result in results:
        if not result.submission.startswith(STAND_IN):
            continue
        kind = result.submission.removeprefix(STAND_IN)
        for t in result.tests:
            if t.score > 0 and t.question in stubbed \
                    and not is_format_test(functions.get((t.question, t.name))):
                paid.setdefault(f"{t.question}::{t.name}", {})[kind] = t.score
        if result.error:
            found.append(f"a stand-in {stand_ins.SAID[kind]} could not be graded: {result.error}")
    for test, kinds in paid.items():  # however many stand-ins a test pays
        said = [stand_ins.SAID[kind] for kind in stand_ins.KINDS if kind in kinds]
        who = (f"a stand-in {said[0]} earns" if len(said) == 1 else
               f"stand-ins ({'; '.join(said)}) earn")
        found.append(f"{who} {max(kinds.values()):g} point(s) on {test}: {ADVICE}")
    return found


@contextlib.contextmanager
def _quiet(logger: logging.Logger):
    """`logger`'s warnings kept off the console for a while (its errors still shown)."""
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)


def stamp_path(assignment_id: str) -> Path:
    return STAMPS / f"{assignment_id}.sha256"


def checked(assignment_id: str) -> bool:
    """Whether a check of these very sources found nothing."""
    path = stamp_path(assignment_id)
    return path.is_file() and path.read_text().strip() == digest(assignment_id)


def mark_checked(assignment_id: str) -> None:
    """Stamp these sources as checked; a stamp that cannot be written (a user who may
    not write in the course's folder) only means the next run checks again."""
    try:
        STAMPS.mkdir(parents=True, exist_ok=True)
        stamp_path(assignment_id).write_text(digest(assignment_id) + "\n")
    except OSError:
        pass


def before_grading(assignment_id: str, allow_unsafe: bool = False) -> list[str]:
    """For `grade`: the problems of the hidden tests, checked unless already
    checked at these sources; [] where there is no master (a Gradescope
    image, a grading host: their zip was built, and so checked). Graded without a
    sandbox only where `allow_unsafe` (grade --unsafe-no-sandbox), as the batch is."""
    from autograder.build import solution_notebook, student_notebook
    record = registry.get(assignment_id)
    if not record.has_master or checked(assignment_id):
        return []
    found = problems(assignment_id, solution_notebook(assignment_id),
                     student_notebook(assignment_id), allow_unsafe)
    if not found:
        mark_checked(assignment_id)
    return found
