"""Does a known mistake explain a failed test's recorded answers? Replayed call by
call (or driven, for a class stub), compared with the student's answers, and with
the reference's: a mistake the test's inputs do not reveal explains nothing."""
from __future__ import annotations

import logging
from typing import Callable

from autograder.engine.diagnoses import compare, drive, replay
from autograder.engine.diagnoses.declared import Diagnosis
from autograder.engine.diagnoses.record import Calls

log = logging.getLogger(__name__)


def matches(d: Diagnosis, record: Calls, reference: Callable, reference_run: list,
             mistaken_of: dict) -> bool:
    """Call by call, stopping at the first answer the mistake does not give (most
    mistakes differ on a test's first, small input: the large ones are not replayed);
    then the states of the twins the test read back. A replayed mistake's answers (and
    the states it left) are kept in mistaken_of[id(d)]. A diagnosis with witnesses
    (other ways of writing the mistake) matches when one of them does."""
    if not d.replay:
        try:  # the stub's own calls: a sign reads answers, not what was done to them
            with replay.quiet_numpy():
                return bool(d.mistake(record.calls if d.steps else record.own()))
        except Exception:  # the author's sign broke on an answer it did not foresee
            log.warning("diagnosis of %s: %s broke", d.question, d.mistake.__name__,
                        exc_info=True)
            return False
    return any(_replayed(d, mistake, record, reference, reference_run, mistaken_of)
               for mistake in (d.mistake, *d.witnesses))


def _replayed(d: Diagnosis, mistake: Callable, record: Calls, reference: Callable,
              reference_run: list, mistaken_of: dict) -> bool:
    """matches, for one way of writing d's mistake."""
    same = lambda a, b: compare.same(a, b, d.rtol, d.atol)
    if record.driven:
        return _matches_driven(d, mistake, record, reference, reference_run, same, mistaken_of)
    twins = replay.make_twins(record)
    mistaken = []
    try:
        for args, kwargs, answer in record.calls:
            mistaken.append(replay.answer(mistake, args, kwargs, twins,
                                    (mistake.__name__, record.name)))
            if not same(answer, mistaken[-1]):
                return False
        states = replay.states(record, twins)
        if not all(same(t.seen, s) for t, s in zip(replay.stateful(record), states)):
            return False
    except replay.Unreplayable:
        raise
    except Exception:  # the author's mistake function broke outside a call
        log.warning("diagnosis of %s: %s broke", d.question, mistake.__name__, exc_info=True)
        return False
    if not reference_run:
        twins = replay.make_twins(record)
        answers = [replay.answer(reference, args, kwargs, twins) for args, kwargs, _ in record.calls]
        try:
            reference_run.append((answers, replay.states(record, twins)))
        except Exception as exc:  # the test's read broke on the reference's twin
            log.warning("diagnosis of %s: a twin's state could not be read", record.name,
                        exc_info=True)
            raise replay.Unreplayable("state") from exc
    answers, reference_states = reference_run[0]
    mistaken_of[id(d)] = (mistaken, states)
    return not (all(same(r, m) for r, m in zip(answers, mistaken))
                and all(same(r, m) for r, m in zip(reference_states, states)))


def _matches_driven(d: Diagnosis, mistake: Callable, record: Calls, reference: Callable,
                    reference_run: list, same: Callable, mistaken_of: dict) -> bool:
    """matches for a record of a stub whose answers hold handles: the mistake driven
    as the test drove the student's objects, stopping at its first answer that is
    not the student's (drive.DRIVEN keeps what was driven, for the next submission)."""
    key = drive.key(record)
    student = [entry[2] for entry in record.calls]
    try:
        mistaken = drive.DRIVEN.answers(mistake, key, record, lambda i, m: same(student[i], m))
    except replay.Unreplayable:
        raise
    except Exception:  # the author's mistake broke outside a call
        log.warning("diagnosis of %s: %s broke", d.question, mistake.__name__, exc_info=True)
        return False
    if mistaken is None:
        return False
    if not reference_run:
        reference_run.append(drive.DRIVEN.answers(reference, key, record, lambda i, m: True))
    mistaken_of[id(d)] = mistaken
    return not all(same(r, m) for r, m in zip(reference_run[0], mistaken))
