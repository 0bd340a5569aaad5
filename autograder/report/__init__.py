"""What grading produces besides numbers: student feedback, gradebook
exports, the class report and the regrade diff, all written from the
SubmissionResults of one batch (never from stale files on disk).

One module per job; `write_all` (in run.py) calls them in order.
"""
