"""The midterm exam: per-student numbers, short answers, two coding stubs,
free responses collected for manual grading (see docs/exam.md)."""


def after_batch(batch, entries) -> list[str]:
    """Called by the batch grader once every submission is graded."""
    from autograder.exam import reports
    from autograder.exam_midterm import reference
    return reports.after_batch(batch, entries, reference)
