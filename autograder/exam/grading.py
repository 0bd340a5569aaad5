"""What an exam's hidden tests call: whose numbers to grade against.

    who = grading.resolution(submission, student)     # identity check, once per submission
    p = grading.numbers(submission, student, "encoder_params", ref)   # that student's variant
    got = grading.short_answer(student, "ENCODER_LAYER_PARAMS", "count")
    grading.answered(student, "encoder_params", p, got)  # kept for a diagnosis

resolution and numbers record what they decided in submission.annotations["exam"]
(the identity and the variant index per question, as plain data: results travel
and are stored as JSON), which the reports read; answered keeps the answer for
the question's diagnoses.
"""
from __future__ import annotations

from autograder.engine.driving.fail import fail
from autograder.engine import config
from autograder.engine.intake import untrusted
from autograder.engine.driving.sent import sent_source
from autograder.engine.driving.student import RemoteObject, StudentError
from autograder.exam import formats
from autograder.exam import identity as identity_mod
from autograder.exam import variants

CLAIM_NAME = "STUDENT_ID"
"""The notebook global holding the identity the student claims."""


def settings(assignment_id: str) -> config.Exam:
    """The [exam] table of the assignment's grading config (its defaults for a
    homework); read when asked, since a grading host may load a new version of it."""
    return config.load(assignment_id).exam or config.Exam()


def _record(submission) -> dict:
    return submission.annotations.setdefault("exam", {"variants": {}})


def resolution(submission, student) -> identity_mod.Resolution:
    """The identity the answers are graded against, decided once per submission."""
    record = _record(submission)
    if "identity" not in record:
        claimed = None
        try:
            if student.has(CLAIM_NAME):
                claimed = student.value(CLAIM_NAME)
        except StudentError:
            claimed = None
        if isinstance(claimed, str):  # the student's text, quoted in the flag message
            claimed = untrusted.name(claimed)
        fields = settings(submission.assignment).identity_fields
        record["identity"] = identity_mod.resolve(submission.submitter or submission.submission,
                                                  submission.metadata,
                                                  claimed, fields).to_plain()
    return identity_mod.Resolution.from_plain(record["identity"])


def numbers(submission, student, question: str, ref) -> dict:
    """The numbers of `question` for the identity being graded, with "variant"."""
    who = resolution(submission, student)
    table = ref.variant_table(question)
    v = variants.variant_index(ref.EXAM, question, who.graded_as, len(table))
    _record(submission)["variants"][question] = v
    return {"variant": v, **table[v]}


def answered(student, question: str, p: dict, got, **also) -> None:
    """Keep the short answer `got` of `question`, read for the numbers `p` (numbers()'s,
    "variant" dropped, `also` added), as a call of the reference's function named like
    the question: a failing test's answer is then diagnosed on the student's own
    variant, like a stub's (engine/diagnoses/)."""
    student.record_answer(question, {**{k: v for k, v in p.items() if k != "variant"}, **also},
                          got)


# ---- reading short answers ---------------------------------------------------
# Which values an answer accepts is exam/formats.py's, shared with the notebook's
# public checks; here only what arrives from the worker is made comparable.

SEQUENCE_PROBE = sent_source(__file__, "sequence_probe")


def answer(student, name: str):
    """The notebook global `name` as plain data (a tuple subclass such as torch.Size as
    a tuple); fails when it is missing or not plain data."""
    try:
        present = student.has(name)
        value = student.value(name) if present else None
        if isinstance(value, RemoteObject) and value.type_name != "ellipsis":
            items = student.build(SEQUENCE_PROBE, "items", value)
            value = value if items is None else items
    except StudentError as exc:
        fail(f"{name} could not be read ({exc.type_name})")
    if not present:
        fail(f"{name} is not defined: run its cell and submit again")
    if isinstance(value, RemoteObject):
        if value.type_name == "ellipsis":
            fail(f"{name} is still ...: replace it with your answer")
        fail(f"{name} is a {value.type_name}, not a plain number or tuple")
    return value


def short_answer(student, name: str, kind: str, low=None, high=None):
    """The answer `name` read as `kind` ("count", "shape", "number"; see exam/formats.py),
    within [low, high]; fails with the message the notebook's public check gives."""
    value = answer(student, name)
    problem = formats.answer_problem(kind, value, name, low, high)
    if problem:
        fail(problem)
    return formats.READERS[kind](value)
