"""The midterm exam: per-student numbers, short answers, two coding stubs,
free responses collected for manual grading (see docs/exam.md)."""
