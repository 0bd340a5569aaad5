"""What an exam needs beyond a homework: per-student variants derived from
the student's identity (variants), the identity check (identity), the
free-response export for manual grading (free_response) and the class
report of difficulty per variant (report).

An exam is an ordinary assignment whose grading_config has an [exam] table;
its package (autograder/<id>/__init__.py) exposes `after_batch`, which the
batch grader calls once every submission has been graded.
"""
