"""What an exam needs beyond a homework: per-student variants derived from
the student's identity (variants), the identity check (identity), the
free-response export for manual grading (free_response) and the class
report of difficulty per variant (report).

An exam is an ordinary assignment whose grading_config has an [exam] table;
its module autograder/<id>/reports.py (a hooks.BatchReports) hands the
reports above to the report stage of `grade` (autograder/grade.py).
"""
