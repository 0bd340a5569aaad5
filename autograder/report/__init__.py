"""What grading produces besides numbers: student feedback, gradebook
exports, the class report and the regrade diff, all written from the
SubmissionResults of one batch (never from stale files on disk).

One module per job; run.py declares the reports (REPORTS) and `write_all`
writes them in order. The course's rules they apply (roster, late policy,
grading by hand) are in autograder/course, which never imports this package.
"""
